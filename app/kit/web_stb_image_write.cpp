// The web build's copy of stb_image_write's implementation (on the desktop, Debian's libstb
// holds it; docs/ARCHITECTURE.md, "The web build"): the kit writes PNGs through it.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
