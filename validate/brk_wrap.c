/*
 * brk_wrap.c - the breakage test's missed wrap.  This file alone reaches
 * below the public API, on purpose: it presets an event's counter close to
 * the top of its width (as another agent could have left it), so that the
 * counter wraps during the kernel, and reads it afterwards the way a careless
 * reader would: end minus start, without the modulo of the counter's width.
 * libpmon's own total of the same counter is kept as a second check, which
 * must PASS: the session counts across the wrap.
 */
#include <string.h>

#include "regs.h"
#include "tables.h"
#include "vrun.h"

struct wrapstate {
	int idx;
	uint64_t start;
	struct pmon_box_regs r;
	int ctr;
};
static struct wrapstate ws = { -1, 0, { 0 }, 0 };

static int wrap_regs(struct vctx *c, struct vevents *e, int idx)
{
	pmon_encoding_t enc;
	char why[256];
	int rc = pmon_machine_encode(c->m, e->name[idx], &enc, why, sizeof(why));
	if (rc)
		return rc;
	if (e->sidx[idx] < 0)
		return PMON_ENOTMODELED;
	ws.ctr = pmon_session_counter(e->s, e->sidx[idx]);
	if (ws.ctr < 0)
		return PMON_EINVAL;
	return pmon_regs_resolve(c->m, enc.pmu, enc.socket, enc.cpu, &ws.r);
}

int vbreak_wrap_preset(struct vctx *c, struct vevents *e, int idx, uint64_t before_top)
{
	ws.idx = -1;
	if (idx < 0 || c->planning)
		return 0;
	int rc = wrap_regs(c, e, idx);
	if (rc)
		return rc;
	uint64_t top = (ws.r.t->width >= 64) ? ~0ull : (1ull << ws.r.t->width);
	ws.start = top - before_top;
	rc = pmon_reg_write(c->m, &ws.r, REG_CTR, ws.ctr, ws.start, c->err, sizeof(c->err));
	if (rc == 0)
		ws.idx = idx;
	return rc;
}

/* After the window: keep libpmon's total as the "wrap handled" check's
 * value, and put the careless reading in the event's place. */
int vbreak_wrap_apply(struct vctx *c, struct vevents *e, int idx, uint64_t *handled)
{
	uint64_t end = 0;
	if (c->planning) {
		*handled = 0;
		vev_mark_broken(e, idx);
		return 0;
	}
	if (ws.idx != idx || idx < 0)
		return PMON_EINVAL;
	int rc = pmon_reg_read(c->m, &ws.r, REG_CTR, ws.ctr, &end, c->err, sizeof(c->err));
	if (rc)
		return rc;
	*handled = e->val[idx];
	e->val[idx] = end - ws.start;     /* the missed wrap: no modulo 2^width */
	vev_mark_broken(e, idx);
	ws.idx = -1;
	return 0;
}
