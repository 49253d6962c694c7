/*
 * kern_dgemm.c - blocked DGEMM, written once (see kern.h).
 *
 * C += A * B, n x n row-major doubles.  Loop nest, outermost first:
 *   kk   k-panels of bk (k0..k1):       A's column panel (n x bk), B's row panel (bk x n)
 *   i    rows r0..r1 of C, two at a time (r1 - r0 even)
 *   jl   one line of each of the two rows of C (8 doubles), kept in 16
 *        accumulators
 *   k    kk..kk+bk: A[i][k] and A[i+1][k] (a line per 8 k), B[k][jl..jl+7]
 *        (one line, used by both rows)
 * So per panel every C line is read and written once, B's panel is reused
 * by every row, A's row segment by every line of the row.  The traffic this
 * gives is derived in expect.c (dgemm_expect).
 */
#include "kern.h"

void KERN(dgemm_blocked)(struct kfeed *f, const struct karr *C, const struct karr *A,
			 const struct karr *B, size_t n, size_t bk, size_t k0, size_t k1,
			 size_t r0, size_t r1)
{
	double *restrict c = C->host;
	const double *restrict a = A->host;
	const double *restrict b = B->host;

	KSTART(f);
	for (size_t kk = k0; kk < k1; kk += bk) {
		for (size_t i = r0; i < r1; i += 2) {
			for (size_t jl = 0; jl < n; jl += 8) {
				double *c0 = &c[i * n + jl], *c1 = c0 + n;
				double s[8], t[8];

				KTOUCH(f, 0, C, c0, K_LOAD);
				KTOUCH(f, 1, C, c1, K_LOAD);
				for (int m = 0; m < 8; m++) {
					s[m] = c0[m];
					t[m] = c1[m];
				}
				for (size_t k = kk; k < kk + bk; k++) {
					const double a0 = a[i * n + k], a1 = a[(i + 1) * n + k];
					const double *bl = &b[k * n + jl];

					KTOUCH(f, 2, A, &a[i * n + k], K_LOAD);
					KTOUCH(f, 3, A, &a[(i + 1) * n + k], K_LOAD);
					KTOUCH(f, 4, B, bl, K_LOAD);
					for (int m = 0; m < 8; m++) {
						s[m] += a0 * bl[m];
						t[m] += a1 * bl[m];
					}
				}
				KTOUCH(f, 5, C, c0, K_STORE);
				KTOUCH(f, 6, C, c1, K_STORE);
				for (int m = 0; m < 8; m++) {
					c0[m] = s[m];
					c1[m] = t[m];
				}
			}
		}
	}
	KDONE(f);
}
