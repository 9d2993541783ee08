// A render file that includes a widget (code.architecture_refuses).
#include "plot_view.hpp"
