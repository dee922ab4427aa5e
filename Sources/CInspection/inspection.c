#include "CInspection.h"

long cinspection_scopes = 0;
