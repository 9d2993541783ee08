#include <gtest/gtest.h>
#include "normlab/eval.hpp"
