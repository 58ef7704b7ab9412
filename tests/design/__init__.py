"""gridbot analyze (and later generate): the questions of level designers, checked against brute force."""
