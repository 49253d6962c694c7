/*
 * kern_dgemm.c - blocked DGEMM, written once (see kern.h).
 *
 * C += A * B, n x n row-major doubles.  Loop nest, outermost first:
 *   kk   k-panels of bk (k0..k1):       A's column panel (n x bk), B's row panel (bk x n)
 *   i    rows r0..r1 of C
 *   jl   one line of C (8 doubles), kept in 8 accumulators
 *   k    kk..kk+bk: A[i][k] (a line per 8 k), B[k][jl..jl+7] (one line)
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
		for (size_t i = r0; i < r1; i++) {
			for (size_t jl = 0; jl < n; jl += 8) {
				double *cl = &c[i * n + jl];
				double s0, s1, s2, s3, s4, s5, s6, s7;

				KTOUCH(f, 0, C, cl, K_LOAD);
				s0 = cl[0]; s1 = cl[1]; s2 = cl[2]; s3 = cl[3];
				s4 = cl[4]; s5 = cl[5]; s6 = cl[6]; s7 = cl[7];
				for (size_t k = kk; k < kk + bk; k++) {
					const double aik = a[i * n + k];
					const double *bl = &b[k * n + jl];

					KTOUCH(f, 1, A, &a[i * n + k], K_LOAD);
					KTOUCH(f, 2, B, bl, K_LOAD);
					s0 += aik * bl[0]; s1 += aik * bl[1];
					s2 += aik * bl[2]; s3 += aik * bl[3];
					s4 += aik * bl[4]; s5 += aik * bl[5];
					s6 += aik * bl[6]; s7 += aik * bl[7];
				}
				KTOUCH(f, 3, C, cl, K_STORE);
				cl[0] = s0; cl[1] = s1; cl[2] = s2; cl[3] = s3;
				cl[4] = s4; cl[5] = s5; cl[6] = s6; cl[7] = s7;
			}
		}
	}
	KDONE(f);
}
