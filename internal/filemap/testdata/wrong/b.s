#include "textflag.h"
