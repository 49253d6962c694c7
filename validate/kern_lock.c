/*
 * kern_lock.c - locked adds and partial-line streaming stores, written
 * once (see kern.h):
 *   locked_add   n locked adds of 1 to 32-bit words 128 bytes apart, each at
 *                byte 62 of its 128 (split: it spans two lines, a split
 *                lock) or at byte 0 (within one line, a cache lock);
 *   lines_nt_half  the first 32 bytes of each of n consecutive lines
 *                written with two 16-byte streaming stores, the rest of the
 *                line left alone: the write-combining buffer leaves half
 *                full, a partial write.
 * The emulated build does the adds without the lock prefix (the host's
 * kernel may slow or kill a process that splits locks; the feed tells the
 * model what the native build does).
 */
#include <string.h>

#include <emmintrin.h>

#include "kern.h"

void KERN(locked_add)(struct kfeed *f, const struct karr *X, size_t n, int split)
{
	char *x = X->host;
	size_t at = split ? 62 : 0;

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		char *p = x + 128 * i + at;
#ifdef KERN_EMU
		uint32_t v;
		KTOUCH(f, 0, X, p, split ? K_SPLIT_LOCK : K_STORE);
		memcpy(&v, p, sizeof(v));
		v++;
		memcpy(p, &v, sizeof(v));
#else
		__asm__ __volatile__("lock addl $1, %0" : "+m"(*(uint32_t *)(void *)p) : : "memory");
#endif
	}
	KDONE(f);
}

void KERN(lines_nt_half)(struct kfeed *f, const struct karr *X, size_t n, double v)
{
	char *x = X->host;
	__m128d vv = _mm_set1_pd(v);

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		double *p = (double *)(void *)(x + 64 * i);
		KTOUCH(f, 0, X, p, K_NT_PARTIAL);
		_mm_stream_pd(p, vv);
		_mm_stream_pd(p + 2, vv);
	}
	_mm_sfence();
	KDONE(f);
}
