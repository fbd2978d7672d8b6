/* The floor for `wonderland --version`: a program that prints one line and exits. */
#include <stdio.h>

int main(void) {
    puts("0.3.0");
    return 0;
}
