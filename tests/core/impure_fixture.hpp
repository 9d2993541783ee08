// Not compiled: core.purity_refuses checks that the purity rule (cmake/CorePurity.cmake) refuses
// this file, whose second include is outside core's allow-list.
#include <vector>
#include <GLFW/glfw3.h>
