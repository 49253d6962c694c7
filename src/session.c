/*
 * session.c - count a set of events together.
 *
 * start:  save every register it will write; freeze the boxes (frz_en|frz);
 *         write filters and controls (with the enable bit); take each counter's
 *         starting value while frozen; program the UBox last (it cannot be
 *         frozen); unfreeze.
 * read:   per counter, delta = (raw - last) mod 2^width, total += delta; so a
 *         counter may wrap once between reads and the 64-bit total stays exact.
 * stop:   freeze, final read, write back every saved register, release the
 *         freeze.  Counters themselves are never written (no reset needed:
 *         totals come from deltas).
 * The box controls are write-only in silicon, so they cannot be saved; they
 * are left at 0 (not frozen, freeze disabled), their power-on state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs.h"
#include "assign.h"

#define IA32_PERF_GLOBAL_CTRL 0x38f

struct sess_event {
	pmon_encoding_t enc;
	int counter;              /* -1: fixed */
	int box;                  /* index into boxes[] */
	uint64_t last, total;
};

struct saved_reg {
	enum pmon_reg_kind kind;
	int idx;
	uint64_t value;
};

struct sess_box {
	struct pmon_box_regs regs;
	struct saved_reg saved[16];
	int nsaved;
	uint64_t global_saved;    /* core PMU: IA32_PERF_GLOBAL_CTRL before start */
	uint64_t global_bits;
};

struct pmon_session {
	struct pmon_machine *m;
	struct sess_event *ev;
	int n, cap;
	struct sess_box *boxes;
	int nboxes;
	int running;
	char err[512];
};

static int set_err(pmon_session_t *s, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_err(pmon_session_t *s, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return rc;
}

int pmon_session_create(pmon_machine_t *m, pmon_session_t **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return PMON_ENOMEM;
	(*out)->m = m;
	return PMON_OK;
}

const char *pmon_session_errmsg(const pmon_session_t *s) { return s->err; }
int pmon_session_count(const pmon_session_t *s) { return s->n; }

int pmon_session_counter(const pmon_session_t *s, int i)
{
	return (i >= 0 && i < s->n) ? s->ev[i].counter : PMON_EINVAL;
}

static int reschedule(pmon_session_t *s, const pmon_encoding_t *extra)
{
	int n = s->n + (extra ? 1 : 0);
	pmon_encoding_t *all = malloc(sizeof(*all) * (size_t)(n ? n : 1));
	int *ctr = malloc(sizeof(int) * (size_t)(n ? n : 1));
	if (!all || !ctr) {
		free(all);
		free(ctr);
		return set_err(s, PMON_ENOMEM, "out of memory");
	}
	for (int i = 0; i < s->n; i++)
		all[i] = s->ev[i].enc;
	if (extra)
		all[s->n] = *extra;
	int rc = pmon_schedule(s->m, all, n, ctr, s->err, sizeof(s->err));
	if (rc == PMON_OK)
		for (int i = 0; i < s->n; i++)
			s->ev[i].counter = ctr[i];
	if (rc == PMON_OK && extra)
		s->ev[s->n].counter = ctr[s->n];
	free(all);
	free(ctr);
	return rc;
}

int pmon_session_add(pmon_session_t *s, const pmon_encoding_t *given)
{
	pmon_encoding_t local = *given, *e = &local;
	if (s->running)
		return set_err(s, PMON_EINVAL, "cannot add %s while counting", e->name);
	/* an encoding made without a machine names a CPU but not its socket */
	if (e->cpu >= 0 && e->socket < 0) {
		if (e->cpu >= s->m->topo.ncpus || s->m->topo.cpu_socket[e->cpu] < 0)
			return set_err(s, PMON_ERANGE, "%s: cpu=%d is not present", e->name, e->cpu);
		e->socket = s->m->topo.cpu_socket[e->cpu];
		if (pmon_catalog_pmu(e->pmu)->type->space != PMON_SPACE_CORE)
			e->cpu = -1;
	}
	if (!pmon_machine_pmu_present(s->m, e->pmu, e->socket))
		return set_err(s, PMON_ENODEV, "%s: box not present", e->name);
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 8;
		struct sess_event *nev = realloc(s->ev, sizeof(*nev) * (size_t)cap);
		if (!nev)
			return set_err(s, PMON_ENOMEM, "out of memory");
		s->ev = nev;
		s->cap = cap;
	}
	memset(&s->ev[s->n], 0, sizeof(s->ev[s->n]));
	int rc = reschedule(s, e);
	if (rc)
		return rc;
	s->ev[s->n].enc = *e;
	s->n++;
	return PMON_OK;
}

int pmon_session_clear(pmon_session_t *s)
{
	if (s->running)
		return set_err(s, PMON_EINVAL, "cannot clear while counting");
	s->n = 0;
	return PMON_OK;
}

/* ---------------------------------------------------------------- programming */

static int box_of(pmon_session_t *s, const pmon_encoding_t *e)
{
	const struct pmon_box_type *t = pmon_catalog_pmu(e->pmu)->type;
	int cpu = t->space == PMON_SPACE_CORE ? e->cpu : -1;
	for (int b = 0; b < s->nboxes; b++)
		if (s->boxes[b].regs.pmu == e->pmu && s->boxes[b].regs.socket == e->socket &&
		    (t->space != PMON_SPACE_CORE || s->boxes[b].regs.cpu == cpu))
			return b;
	struct sess_box *bx = &s->boxes[s->nboxes];
	memset(bx, 0, sizeof(*bx));
	if (pmon_regs_resolve(s->m, e->pmu, e->socket, cpu, &bx->regs))
		return -1;
	return s->nboxes++;
}

static int save(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx)
{
	for (int i = 0; i < bx->nsaved; i++)
		if (bx->saved[i].kind == k && bx->saved[i].idx == idx)
			return PMON_OK;
	if (bx->nsaved >= (int)(sizeof(bx->saved) / sizeof(bx->saved[0])))
		return set_err(s, PMON_EINVAL, "too many registers in one box");
	struct saved_reg *r = &bx->saved[bx->nsaved];
	int rc = pmon_reg_read(s->m, &bx->regs, k, idx, &r->value);
	if (rc)
		return set_err(s, rc, "reading %s register before programming failed: %s",
			       pmon_catalog_pmu(bx->regs.pmu)->name, s->m->acc->why);
	r->kind = k;
	r->idx = idx;
	bx->nsaved++;
	return PMON_OK;
}

static int is_ubox(const struct sess_box *bx) { return !bx->regs.t->has_box_ctl; }

static int wr(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx, uint64_t v)
{
	int rc = pmon_reg_write(s->m, &bx->regs, k, idx, v);
	if (rc)
		set_err(s, rc, "writing a %s register failed: %s",
			pmon_catalog_pmu(bx->regs.pmu)->name, s->m->acc->why);
	return rc;
}

static int read_counter(pmon_session_t *s, struct sess_event *e, uint64_t *raw)
{
	struct sess_box *bx = &s->boxes[e->box];
	int rc = pmon_reg_read(s->m, &bx->regs, e->counter < 0 ? REG_FIXED_CTR : REG_CTR,
			       e->counter < 0 ? 0 : e->counter, raw);
	if (rc)
		set_err(s, rc, "reading the counter of %s failed: %s", e->enc.name, s->m->acc->why);
	return rc;
}

static void restore_all(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i < bx->nsaved; i++)
			pmon_reg_write(s->m, &bx->regs, bx->saved[i].kind, bx->saved[i].idx,
				       bx->saved[i].value);
		if (bx->regs.t->space == PMON_SPACE_CORE && bx->global_bits)
			s->m->acc->ops->msr_write(s->m->acc, bx->regs.cpu, IA32_PERF_GLOBAL_CTRL,
						  bx->global_saved);
		if (bx->regs.t->has_box_ctl)
			pmon_reg_write(s->m, &bx->regs, REG_BOX_CTL, 0, 0);
	}
}

static int freeze_all(pmon_session_t *s, uint32_t value)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if (bx->regs.t->has_box_ctl && bx->regs.t->space != PMON_SPACE_CORE) {
			int rc = wr(s, bx, REG_BOX_CTL, 0, value);
			if (rc)
				return rc;
		}
	}
	return PMON_OK;
}

/* Program one event's control (and the box filters it needs). */
static int program(pmon_session_t *s, struct sess_event *e)
{
	struct sess_box *bx = &s->boxes[e->box];
	const struct pmon_box_type *t = bx->regs.t;
	int rc;
	for (int r = 0; r < t->nfregs; r++) {
		/* a filter register is written when the event uses a field in it */
		int used = 0;
		for (int f = 0; f < t->nfields; f++)
			if ((e->enc.fields_used & (1u << f)) && t->fields[f].word == t->fregs[r].word)
				used = 1;
		if (!used)
			continue;
		if ((rc = save(s, bx, REG_FILTER, r)))
			return rc;
		/* fields of several events merge: they agree where they overlap */
		uint64_t v = 0;
		for (int i = 0; i < s->n; i++)
			if (s->ev[i].box == e->box)
				v |= s->ev[i].enc.filt[t->fregs[r].word];
		if ((rc = wr(s, bx, REG_FILTER, r, v & t->fregs[r].valid)))
			return rc;
	}
	if (e->counter < 0) {
		if ((rc = save(s, bx, REG_FIXED_CTL, 0)))
			return rc;
		return wr(s, bx, REG_FIXED_CTL, 0, t->fixed_en);
	}
	if ((rc = save(s, bx, REG_CTL, e->counter)))
		return rc;
	if (t->space == PMON_SPACE_CORE)
		bx->global_bits |= 1ull << e->counter;
	return wr(s, bx, REG_CTL, e->counter, e->enc.ctl | PMON_CTL_EN);
}

int pmon_session_start(pmon_session_t *s)
{
	int rc;
	if (s->running)
		return set_err(s, PMON_EINVAL, "already counting");
	if (!s->n)
		return set_err(s, PMON_EINVAL, "no events to count");
	free(s->boxes);
	s->boxes = calloc((size_t)s->n, sizeof(*s->boxes));
	s->nboxes = 0;
	if (!s->boxes)
		return set_err(s, PMON_ENOMEM, "out of memory");
	for (int i = 0; i < s->n; i++)
		if ((s->ev[i].box = box_of(s, &s->ev[i].enc)) < 0)
			return set_err(s, PMON_ENODEV, "%s: box not present", s->ev[i].enc.name);

	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ)))
		goto undo;
	/* everything but the UBox, which has no freeze and so goes last */
	for (int i = 0; i < s->n; i++)
		if (!is_ubox(&s->boxes[s->ev[i].box]) && (rc = program(s, &s->ev[i])))
			goto undo;
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if (bx->regs.t->space != PMON_SPACE_CORE || !bx->global_bits)
			continue;
		if ((rc = s->m->acc->ops->msr_read(s->m->acc, bx->regs.cpu, IA32_PERF_GLOBAL_CTRL,
						   &bx->global_saved))) {
			set_err(s, rc, "reading IA32_PERF_GLOBAL_CTRL failed: %s", s->m->acc->why);
			goto undo;
		}
	}
	for (int i = 0; i < s->n; i++) {
		if (is_ubox(&s->boxes[s->ev[i].box]) && (rc = save(s, &s->boxes[s->ev[i].box],
				s->ev[i].counter < 0 ? REG_FIXED_CTL : REG_CTL,
				s->ev[i].counter < 0 ? 0 : s->ev[i].counter)))
			goto undo;
		if ((rc = read_counter(s, &s->ev[i], &s->ev[i].last)))
			goto undo;
		s->ev[i].total = 0;
	}
	for (int i = 0; i < s->n; i++)
		if (is_ubox(&s->boxes[s->ev[i].box]) && (rc = program(s, &s->ev[i])))
			goto undo;
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if (bx->regs.t->space == PMON_SPACE_CORE && bx->global_bits &&
		    (rc = s->m->acc->ops->msr_write(s->m->acc, bx->regs.cpu, IA32_PERF_GLOBAL_CTRL,
						    bx->global_saved | bx->global_bits))) {
			set_err(s, rc, "writing IA32_PERF_GLOBAL_CTRL failed: %s", s->m->acc->why);
			goto undo;
		}
	}
	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN)))
		goto undo;
	s->running = 1;
	return PMON_OK;
undo:
	restore_all(s);
	return rc;
}

static int accumulate(pmon_session_t *s, uint64_t *values)
{
	for (int i = 0; i < s->n; i++) {
		struct sess_event *e = &s->ev[i];
		const struct pmon_box_type *t = s->boxes[e->box].regs.t;
		int width = e->counter < 0 ? t->fixed_width : t->width;
		uint64_t raw;
		int rc = read_counter(s, e, &raw);
		if (rc)
			return rc;
		e->total += (raw - e->last) & ((1ull << width) - 1);
		e->last = raw;
		if (values)
			values[i] = e->total;
	}
	return PMON_OK;
}

int pmon_session_read(pmon_session_t *s, uint64_t *values)
{
	if (!s->running) {
		for (int i = 0; values && i < s->n; i++)
			values[i] = s->ev[i].total;
		return PMON_OK;
	}
	return accumulate(s, values);
}

int pmon_session_reset(pmon_session_t *s)
{
	if (s->running) {
		int rc = accumulate(s, NULL);
		if (rc)
			return rc;
	}
	for (int i = 0; i < s->n; i++)
		s->ev[i].total = 0;
	return PMON_OK;
}

int pmon_session_stop(pmon_session_t *s, uint64_t *values)
{
	if (!s->running)
		return set_err(s, PMON_EINVAL, "not counting");
	int rc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ);
	int rc2 = accumulate(s, values);
	restore_all(s);
	s->running = 0;
	return rc ? rc : rc2;
}

void pmon_session_destroy(pmon_session_t *s)
{
	if (!s)
		return;
	if (s->running)
		pmon_session_stop(s, NULL);
	free(s->boxes);
	free(s->ev);
	free(s);
}
