package wrong
