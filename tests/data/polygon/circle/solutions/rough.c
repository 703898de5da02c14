#include <stdio.h>
int main(void) {
    double r;
    scanf("%lf", &r);
    printf("%.2f\n", 3.14159 * r * r);
    return 0;
}
