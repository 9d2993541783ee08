#include "normlab/eval.hpp"
