/*
 * kern_dram.c - whole-line streaming stores to chosen lines, written once
 * (see kern.h): each listed line (byte offsets into x, in the order given)
 * is written with four 16-byte non-temporal stores, no read.
 */
#include <emmintrin.h>

#include "kern.h"

void KERN(lines_nt)(struct kfeed *f, const struct karr *X, const uint64_t *offs, size_t n, double v)
{
	char *x = X->host;
	__m128d vv = _mm_set1_pd(v);

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		double *p = (double *)(x + offs[i]);
		KTOUCH(f, 0, X, p, K_NT);
		for (int k = 0; k < 8; k += 2)
			_mm_stream_pd(p + k, vv);
	}
	_mm_sfence();
	KDONE(f);
}
