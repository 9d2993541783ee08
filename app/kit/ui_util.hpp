// One include for a lab or widget that uses the kit's helpers: numbers and text on screen
// (screen_text.hpp), fields the user types into (fields.hpp), panels and rows (panels.hpp).
#pragma once

#include "fields.hpp"
#include "panels.hpp"
#include "screen_text.hpp"
#include "theme_fonts.hpp"   // to_u32
