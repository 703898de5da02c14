#include <cmath>
#include <cstdio>
int main() {
    double r;
    scanf("%lf", &r);
    printf("%.10f\n", acos(-1.0) * r * r);
}
