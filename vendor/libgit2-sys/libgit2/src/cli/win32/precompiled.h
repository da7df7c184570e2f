#include <git2.h>

#include "common.h"
