/*
 * lsan-probe.c - leaks one block on purpose.  ctests/run.sh runs it (built
 * with -fsanitize=address) to find out whether LeakSanitizer can work here.
 */
#include <stdio.h>
#include <stdlib.h>

void *volatile lsan_probe_sink;

int main(void)
{
	lsan_probe_sink = malloc(4096);
	lsan_probe_sink = NULL;  /* the only pointer is gone: a leak */
	puts("lsan-probe: leaked 4096 bytes");
	return 0;
}
