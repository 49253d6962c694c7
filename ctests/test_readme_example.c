/*
 * test_readme_example.c - the README's example program (doc/examples/
 * llc_misses.c, built as build/examples/llc_misses) prints exactly the
 * lines the README shows, and those numbers are the ones the pattern
 * implies: an 8 MiB array read twice = 2 x 131072 lines, each an LLC miss,
 * a DRAM read and an offcore "LLC miss, local DRAM" response.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void)
{
	static char readme[1 << 20];
	char line[256], want[64];
	const unsigned long long lines = 2ull * (8u << 20) / 64;
	int nlines = 0;
	FILE *f = fopen("README.md", "r");
	size_t n = f ? fread(readme, 1, sizeof readme - 1, f) : 0;

	CHECK(f != NULL, "README.md readable (run from the source tree)");
	if (f)
		fclose(f);
	readme[n] = '\0';
	FILE *p = popen("build/examples/llc_misses", "r");
	CHECK(p != NULL, "run build/examples/llc_misses");
	if (!p)
		return check_done("test_readme_example");
	snprintf(want, sizeof want, "%llu", lines);
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		nlines++;
		CHECK(strstr(readme, line) != NULL, "README shows the line '%s'", line);
		const char *num = strrchr(line, ' ');
		CHECK(num && !strcmp(num + 1, want), "'%s' ends in %s", line, want);
	}
	CHECK_EQ_INT(pclose(p), 0, "the example exits 0");
	CHECK_EQ_INT(nlines, 4, "four lines of output");
	return check_done("test_readme_example");
}
