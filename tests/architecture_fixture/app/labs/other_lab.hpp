// Another lab's window header: its UI struct is its own (code.architecture_refuses).
#pragma once

struct OtherUi {
    int count = 0;
};
