// A norm file that includes a lab: scripts/check_architecture.py must refuse it (code.architecture_refuses).
#include "normlab/labs/explorer_lab.hpp"
