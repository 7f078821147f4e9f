#include "cells.h"
Cell *cells;
int ncells;
