// the page's script (step 3)
