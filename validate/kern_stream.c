/*
 * kern_stream.c - STREAM's four kernels (Copy, Scale, Add, Triad), array
 * initialisation and a read of chosen lines, written once (see kern.h).
 * With nt, the written array is stored with non-temporal (streaming) stores,
 * two doubles at a time: no read for ownership, straight to memory.
 */
#include <emmintrin.h>

#include "kern.h"

void KERN(stream_copy)(struct kfeed *f, const struct karr *C, const struct karr *A,
		       size_t lo, size_t hi, int nt)
{
	double *restrict c = C->host;
	const double *restrict a = A->host;

	KSTART(f);
	if (!nt) {
		for (size_t j = lo; j < hi; j++) {
			KTOUCH(f, 0, A, &a[j], K_LOAD);
			KTOUCH(f, 1, C, &c[j], K_STORE);
			c[j] = a[j];
		}
	} else {
		for (size_t j = lo; j < hi; j += 2) {
			KTOUCH(f, 0, A, &a[j], K_LOAD);
			KTOUCH(f, 1, C, &c[j], K_NT);
			_mm_stream_pd(&c[j], _mm_load_pd(&a[j]));
		}
		_mm_sfence();
	}
	KDONE(f);
}

void KERN(stream_scale)(struct kfeed *f, const struct karr *B, const struct karr *C,
			double q, size_t lo, size_t hi, int nt)
{
	double *restrict b = B->host;
	const double *restrict c = C->host;

	KSTART(f);
	if (!nt) {
		for (size_t j = lo; j < hi; j++) {
			KTOUCH(f, 0, C, &c[j], K_LOAD);
			KTOUCH(f, 1, B, &b[j], K_STORE);
			b[j] = q * c[j];
		}
	} else {
		__m128d vq = _mm_set1_pd(q);
		for (size_t j = lo; j < hi; j += 2) {
			KTOUCH(f, 0, C, &c[j], K_LOAD);
			KTOUCH(f, 1, B, &b[j], K_NT);
			_mm_stream_pd(&b[j], _mm_mul_pd(vq, _mm_load_pd(&c[j])));
		}
		_mm_sfence();
	}
	KDONE(f);
}

void KERN(stream_add)(struct kfeed *f, const struct karr *C, const struct karr *A,
		      const struct karr *B, size_t lo, size_t hi, int nt)
{
	double *restrict c = C->host;
	const double *restrict a = A->host;
	const double *restrict b = B->host;

	KSTART(f);
	if (!nt) {
		for (size_t j = lo; j < hi; j++) {
			KTOUCH(f, 0, A, &a[j], K_LOAD);
			KTOUCH(f, 1, B, &b[j], K_LOAD);
			KTOUCH(f, 2, C, &c[j], K_STORE);
			c[j] = a[j] + b[j];
		}
	} else {
		for (size_t j = lo; j < hi; j += 2) {
			KTOUCH(f, 0, A, &a[j], K_LOAD);
			KTOUCH(f, 1, B, &b[j], K_LOAD);
			KTOUCH(f, 2, C, &c[j], K_NT);
			_mm_stream_pd(&c[j], _mm_add_pd(_mm_load_pd(&a[j]), _mm_load_pd(&b[j])));
		}
		_mm_sfence();
	}
	KDONE(f);
}

void KERN(stream_triad)(struct kfeed *f, const struct karr *A, const struct karr *B,
			const struct karr *C, double q, size_t lo, size_t hi, int nt)
{
	double *restrict a = A->host;
	const double *restrict b = B->host;
	const double *restrict c = C->host;

	KSTART(f);
	if (!nt) {
		for (size_t j = lo; j < hi; j++) {
			KTOUCH(f, 0, B, &b[j], K_LOAD);
			KTOUCH(f, 1, C, &c[j], K_LOAD);
			KTOUCH(f, 2, A, &a[j], K_STORE);
			a[j] = b[j] + q * c[j];
		}
	} else {
		__m128d vq = _mm_set1_pd(q);
		for (size_t j = lo; j < hi; j += 2) {
			KTOUCH(f, 0, B, &b[j], K_LOAD);
			KTOUCH(f, 1, C, &c[j], K_LOAD);
			KTOUCH(f, 2, A, &a[j], K_NT);
			_mm_stream_pd(&a[j], _mm_add_pd(_mm_load_pd(&b[j]),
						    _mm_mul_pd(vq, _mm_load_pd(&c[j]))));
		}
		_mm_sfence();
	}
	KDONE(f);
}

/* x[lo..hi) = v, with ordinary stores: the first touch that places pages. */
void KERN(stream_init)(struct kfeed *f, const struct karr *X, double v, size_t lo, size_t hi)
{
	double *restrict x = X->host;

	KSTART(f);
	for (size_t j = lo; j < hi; j++) {
		KTOUCH(f, 0, X, &x[j], K_STORE);
		x[j] = v;
	}
	KDONE(f);
}

/* Sum of the first double of each listed line (byte offsets into x): one
 * load per line, in the order given. */
double KERN(line_sum)(struct kfeed *f, const struct karr *X, const uint64_t *offs, size_t n)
{
	const char *x = X->host;
	double s = 0;

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		const double *p = (const double *)(x + offs[i]);
		KTOUCH(f, 0, X, p, K_LOAD);
		s += *p;
	}
	KDONE(f);
	return s;
}
