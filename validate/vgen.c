/*
 * vgen.c - the suite's generations (vgen.h).
 */
#include "vgen.h"

const struct vgen vgen_snbep = { "snbep", snbep_chase, snbep_stream };

const struct vgen *vgen_of(const struct vctx *c)
{
	(void)c;
	return &vgen_snbep;
}
