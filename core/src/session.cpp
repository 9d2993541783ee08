#include "normlab/session.hpp"
