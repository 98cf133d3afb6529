/* argv prints its arguments, each followed by a NUL byte, for the
 * differential test of parser against bash. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
	for (int i = 0; i < argc; i++) {
		fwrite(argv[i], 1, strlen(argv[i]) + 1, stdout);
	}
	return 0;
}
