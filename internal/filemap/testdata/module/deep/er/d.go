package er
