/*
 * kern_pf.c - a few lines of each 4 KiB page, written once (see kern.h):
 * page_lines touches lines at[0..nl) (line numbers within the page, in that
 * order) of each of pages consecutive pages, page after page: a load of
 * the line's first double (store 0), or a store to it (store 1).  Returns
 * the sum of the doubles loaded.
 */
#include "kern.h"

double KERN(page_lines)(struct kfeed *f, const struct karr *X, size_t pages, const int *at, int nl,
			int store)
{
	char *x = X->host;
	double s = 0;

	KSTART(f);
	for (size_t p = 0; p < pages; p++)
		for (int k = 0; k < nl; k++) {
			double *d = (double *)(void *)(x + 4096 * p + 64 * (size_t)at[k]);
			if (store) {
				KTOUCH(f, 0, X, d, K_STORE);
				*d = 2.0;
			} else {
				KTOUCH(f, 0, X, d, K_LOAD);
				s += *d;
			}
		}
	KDONE(f);
	return s;
}
