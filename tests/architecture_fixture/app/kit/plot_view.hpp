// A widget header (code.architecture_refuses).
#pragma once
