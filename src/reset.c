/*
 * reset.c - `pmon reset`: put the registers back after a process that
 * counted died without restoring them.
 *
 * Per socket: take the lock of every box of the socket (uncore boxes, and
 * the core PMU of each of its CPUs); if a live process holds one, refuse
 * and write nothing.  Then read the socket's journal (journal.h) and check
 * every line before writing anything: its sum, its box (present on this
 * socket; a core PMU's CPU on this socket, an uncore box's cpu -1), and its
 * register (pmon_reg_check: one the box has, in the PMON allowlist, its
 * value within the register's writable bits).  A line that fails is named
 * and dropped, never written.  For each good line the register is read
 * first: one that holds its original value already is left (an interrupted
 * reset, or a stop that restored it but could not remove the line); one
 * that holds what pmon wrote (or, for a line of a start that died before
 * recording it, anything; for a box control, also the frozen form of what
 * pmon wrote, which a stop killed after its freeze leaves) gets its
 * original value back; one that holds
 * something else is another agent's now, named and left as it is (unless
 * PMON_RESET_FORCE).  A global overflow line (reg=global_ovf) has its
 * counters' overflow bits that are set now but were not before (not in
 * its value) cleared through the overflow control; no other bit is
 * written.  A line of mask 0 (a register another agent took
 * over while pmon counted) is not written, is named and stays; the others
 * go from the journal once handled, but for registers whose access failed.
 *
 * A line of MSR 0x1A4 (box "prefetch": the prefetchers, which
 * pmon_machine_prefetch_write changes on request) is checked the same way
 * (its CPU on the socket, bits 0-3 only) and put back the same way, only
 * while it holds what pmon wrote there, and never while the process that
 * wrote it still runs.
 *
 * Registers pmon has no record of are written only with PMON_RESET_ALL:
 * every uncore box of the socket the journal did not name gets its PMON
 * controls, fixed control, filters, box control and global control's
 * enable bits set to their power-on value 0, but a box with a control enabled (another agent counting) is
 * left alone and named (PMON_RESET_FORCE clears it too).  The core PMU is
 * never cleared so (perf and the NMI watchdog share it).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "pmon/platform.h"
#include "boxlock.h"
#include "journal.h"
#include "regs.h"
#include "why.h"

static int core_pmu(const struct pmon_pmu *p) { return p->type->space == PMON_SPACE_CORE; }

/* Lock every box of the socket; PMON_EBUSY naming the holder. */
static int lock_socket(struct pmon_machine *m, struct pmon_boxlocks *L, int socket, char *why,
		       size_t len)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	for (int p = 0; p < npmus; p++) {
		if (!m->loc[p][socket].present)
			continue;
		for (int cpu = 0; cpu < (core_pmu(&pmus[p]) ? m->topo.ncpus : 1); cpu++) {
			char name[80], w[512];
			long holder;
			if (core_pmu(&pmus[p]) && m->topo.cpu_socket[cpu] != socket)
				continue;
			pmon_boxlock_name(name, sizeof(name), pmus[p].name, socket,
					  core_pmu(&pmus[p]) ? cpu : -1);
			int rc = pmon_boxlock_take(L, name, &holder, w, sizeof(w));
			if (rc == PMON_EBUSY)
				return pmon_why(why, len, rc, "socket %d: %s; stop that process first "
						"(nothing was written)", socket, w);
			if (rc)
				return pmon_why(why, len, rc, "socket %d: %s", socket, w);
		}
	}
	return PMON_OK;
}

/* What a reset of one socket did, for its report line. */
struct tally {
	int written, already, all_cleared;
	char skipped[2048];       /* lines that are not valid entries, dropped */
	char theirs[2048];        /* registers another agent holds now, left */
	char alone[2048];         /* lines of mask 0, left */
	char left[2048];          /* registers whose access failed */
	char cleared[2048];       /* --all: boxes cleared */
	char busy[2048];          /* --all: boxes with an enabled control, left */
	int first;
};

static void failed(struct tally *t, const char *name, const char *why, int rc)
{
	pmon_why_add(t->left, sizeof(t->left), "; ", "%s (%s)", name, why);
	t->first = t->first ? t->first : rc;
}

/* A write's outcome tallied: 1 when it failed (the line stays in the
 * journal), 0 when it was written. */
static int wrote(struct tally *t, const char *name, const char *why, int rc)
{
	if (rc) {
		failed(t, name, why, rc);
		return 1;
	}
	t->written++;
	return 0;
}

/* Register (k, idx) of r: read, retried; 0 or the error (why). */
static int get(struct pmon_machine *m, const struct pmon_box_regs *r, enum pmon_reg_kind k,
	       int idx, uint64_t *v, char *why, size_t len)
{
	int rc = PMON_OK;
	for (int t = 0; t < 3; t++)
		if (!(rc = pmon_reg_read(m, r, k, idx, v, why, len)))
			break;
	return rc;
}

/* Write the bits of mask of (k, idx) to those of v, the others as cur. */
static int put(struct pmon_machine *m, const struct pmon_box_regs *r, enum pmon_reg_kind k,
	       int idx, uint64_t cur, uint64_t v, uint64_t mask, char *why, size_t len)
{
	int rc = PMON_OK;
	for (int t = 0; t < 3; t++)
		if (!(rc = pmon_reg_write(m, r, k, idx, (cur & ~mask) | (v & mask), why, len)))
			break;
	return rc;
}

/* A line of MSR 0x1A4 (the prefetchers, written by
 * pmon_machine_prefetch_write): its CPU on socket s, its bits 0-3 only,
 * what pmon wrote recorded. */
static int check_prefetch(struct pmon_machine *m, int s, const struct pmon_journal_entry *e,
			  char *why, size_t len)
{
	if (e->cpu < 0 || e->cpu >= m->topo.ncpus)
		return pmon_why(why, len, PMON_EINVAL, "cpu %d: this machine has CPUs 0-%d", e->cpu,
				m->topo.ncpus - 1);
	if (m->topo.cpu_socket[e->cpu] != s)
		return pmon_why(why, len, PMON_EINVAL, "cpu %d is on socket %d, not on socket %d whose "
				"journal this is", e->cpu, m->topo.cpu_socket[e->cpu], s);
	if (e->kind != REG_CTL || e->idx != 0)
		return pmon_why(why, len, PMON_EINVAL, "MSR 0x1A4 is journaled as ctl 0, not %s %d",
				pmon_reg_kind_name(e->kind), e->idx);
	if (e->mask != PMON_PF_ALL || (e->value & ~(uint64_t)PMON_PF_ALL) || !e->has_wrote ||
	    (e->wrote & ~(uint64_t)PMON_PF_ALL))
		return pmon_why(why, len, PMON_EINVAL, "MSR 0x1A4: pmon writes its bits 0-3 only "
				"(mask 0xf, value and wrote within 0xf)");
	return PMON_OK;
}

/* Handle a valid line of MSR 0x1A4: 1 when it stays in the journal. */
static int from_prefetch(struct pmon_machine *m, const struct pmon_journal_entry *e, unsigned flags,
			 struct tally *t)
{
	char name[64], why[PMON_WHY_LEN];
	uint64_t cur = 0;
	snprintf(name, sizeof(name), "MSR 0x1A4 (prefetchers) of CPU %d", e->cpu);
	if (pmon_owner_alive(&e->owner) && e->owner.pid != pmon_owner_self()->pid) {
		pmon_why_add(t->theirs, sizeof(t->theirs), "; ", "%s: process %ld that changed it is "
			     "running (it puts it back itself)", name, e->owner.pid);
		return 1;
	}
	int rc = PMON_OK;
	for (int i = 0; i < 3; i++)
		if (!(rc = m->acc->ops->msr_read(m->acc, e->cpu, PMON_MSR_MISC_FEATURE_CTL, &cur, why,
						 sizeof(why))))
			break;
	if (rc) {
		failed(t, name, why, rc);
		return 1;
	}
	if ((cur & PMON_PF_ALL) == e->value) {
		t->already++;
		return 0;
	}
	if ((cur & PMON_PF_ALL) != e->wrote && !(flags & PMON_RESET_FORCE)) {
		pmon_why_add(t->theirs, sizeof(t->theirs), "; ", "%s holds 0x%llx in bits 0-3, neither "
			     "what pmon wrote (0x%llx) nor its original (0x%llx)", name,
			     (unsigned long long)(cur & PMON_PF_ALL), (unsigned long long)e->wrote,
			     (unsigned long long)e->value);
		return 0;
	}
	for (int i = 0; i < 3; i++)
		if (!(rc = m->acc->ops->msr_write(m->acc, e->cpu, PMON_MSR_MISC_FEATURE_CTL,
						  (cur & ~(uint64_t)PMON_PF_ALL) | e->value, why,
						  sizeof(why))))
			break;
	return wrote(t, name, why, rc);
}

/* Is journal line e one pmon may act on, on socket s?  Its register in *r. */
static int check_line(struct pmon_machine *m, int s, const struct pmon_journal_entry *e,
		      struct pmon_box_regs *r, char *why, size_t len)
{
	if (!strcmp(e->box, PMON_JOURNAL_PREFETCH))
		return check_prefetch(m, s, e, why, len);
	int pmu = pmon_pmu_find(e->box);
	if (pmu < 0)
		return pmon_why(why, len, PMON_EINVAL, "names no PMU pmon knows (%s)", e->box);
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (core_pmu(p)) {
		if (e->cpu < 0 || e->cpu >= m->topo.ncpus)
			return pmon_why(why, len, PMON_EINVAL, "cpu %d: this machine has CPUs 0-%d", e->cpu,
					m->topo.ncpus - 1);
		if (m->topo.cpu_socket[e->cpu] != s)
			return pmon_why(why, len, PMON_EINVAL, "cpu %d is on socket %d, not on socket %d "
					"whose journal this is", e->cpu, m->topo.cpu_socket[e->cpu], s);
	} else if (e->cpu != -1) {
		return pmon_why(why, len, PMON_EINVAL, "cpu %d: an uncore box's line has cpu -1", e->cpu);
	}
	if (pmon_regs_resolve(m, pmu, s, e->cpu, r))
		return pmon_why(why, len, PMON_ENODEV, "%s is not present on socket %d", e->box, s);
	/* a global control's line: what pmon wrote is its enable bits (mask) */
	if ((e->kind == REG_GLOBAL_CTL || e->kind == REG_GLOBAL_OVF) && e->mask && e->has_wrote &&
	    (e->wrote & ~e->mask))
		return pmon_why(why, len, PMON_EINVAL, "a global control's line wrote 0x%llx, bits "
				"outside its mask 0x%llx", (unsigned long long)e->wrote,
				(unsigned long long)e->mask);
	return pmon_reg_check(r, e->kind, e->idx, e->value, e->mask, why, len);
}

#define BOX_CTL_KEPT ((uint64_t)(PMON_BOX_FRZ_EN | PMON_BOX_FRZ))

/* Handle one valid line (register r): 1 when it stays in the journal. */
static int from_line(struct pmon_machine *m, const struct pmon_journal_entry *e,
		     const struct pmon_box_regs *r, unsigned flags, struct tally *t)
{
	char name[160], why[PMON_WHY_LEN];
	uint64_t cur = 0;
	pmon_reg_name(r, e->kind, e->idx, name, sizeof(name));
	if (!e->mask) {
		/* another agent's since pmon's stop found it changed */
		pmon_why_add(t->alone, sizeof(t->alone), "; ", "%s (0x%llx when pmon stopped)", name,
			     (unsigned long long)e->value);
		return 1;
	}
	int rc = get(m, r, e->kind, e->idx, &cur, why, sizeof(why));
	if (rc) {
		failed(t, name, why, rc);
		return 1;
	}
	if (e->kind == REG_GLOBAL_OVF) {
		/* the overflow bits of the line's counters set since (not in
		 * value): cleared by writing them to the overflow control */
		uint64_t clear = cur & e->mask & ~e->value;
		if (!clear) {
			t->already++;
			return 0;
		}
		for (int i = 0; i < 3; i++)
			if (!(rc = pmon_reg_write(m, r, REG_GLOBAL_OVF, 0, clear, why, sizeof(why))))
				break;
		return wrote(t, name, why, rc);
	}
	/* what is compared: the bits of the line's mask (a box control's
	 * freeze bits: the others act once and read back 0) */
	uint64_t cmp = e->kind == REG_BOX_CTL ? BOX_CTL_KEPT : e->mask;
	if (!((cur ^ e->value) & cmp)) {
		t->already++;
		return 0;
	}
	if (e->kind == REG_GLOBAL_CTL && e->has_wrote && !(flags & PMON_RESET_FORCE)) {
		/* bit by bit (sessions own its bits one by one, and one that
		 * stopped put its own back): a bit holding what pmon wrote gets
		 * its original; one holding neither is another agent's, left */
		uint64_t diff = (cur ^ e->value) & e->mask, ours = diff & ~(cur ^ e->wrote);
		if (diff & ~ours)
			pmon_why_add(t->theirs, sizeof(t->theirs), "; ", "%s bits 0x%llx hold neither what "
				     "pmon wrote nor their original", name,
				     (unsigned long long)(diff & ~ours));
		if (!ours)
			return 0;
		rc = put(m, r, e->kind, e->idx, cur, e->value, ours, why, sizeof(why));
		return wrote(t, name, why, rc);
	}
	/* what pmon wrote: for a box control also its frozen form, which a
	 * stop writes first (to read the counts at one instant) and a process
	 * killed in that stop leaves */
	int ours = !((cur ^ e->wrote) & cmp) ||
		   (e->kind == REG_BOX_CTL && (e->wrote & PMON_BOX_FRZ_EN) &&
		    !((cur ^ (e->wrote | PMON_BOX_FRZ)) & cmp));
	if (e->has_wrote && !ours && !(flags & PMON_RESET_FORCE)) {
		pmon_why_add(t->theirs, sizeof(t->theirs), "; ", "%s holds 0x%llx, neither what pmon "
			     "wrote (0x%llx) nor its original (0x%llx)", name, (unsigned long long)cur,
			     (unsigned long long)e->wrote, (unsigned long long)e->value);
		return 0;
	}
	rc = put(m, r, e->kind, e->idx, cur, e->value, e->mask, why, sizeof(why));
	return wrote(t, name, why, rc);
}

/* The socket's journal: every valid line handled, the journal rewritten
 * with the lines that stay.  *had: a journal was there. */
static int from_journal(struct pmon_machine *m, int s, unsigned flags, struct tally *t,
			struct pmon_journal_entry **ep, int *np, int *had, char *why, size_t len)
{
	struct pmon_journal_entry *e = NULL;
	char bad[2048];
	int n = 0, keep = 0;
	*ep = NULL;
	*np = *had = 0;
	int rc = pmon_journal_load(m->run_dir, s, &e, &n, bad, sizeof(bad), why, len);
	if (rc)
		return rc;
	*had = n || bad[0];
	if (bad[0]) {
		pmon_why_add(t->skipped, sizeof(t->skipped), "; ", "%s", bad);
		t->first = t->first ? t->first : PMON_EINVAL;
	}
	struct pmon_journal_entry *kept = calloc((size_t)n + 1, sizeof(*kept));
	if (!kept) {
		free(e);
		return pmon_why(why, len, PMON_ENOMEM, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		struct pmon_box_regs r;
		char w[PMON_WHY_LEN];
		if (check_line(m, s, &e[i], &r, w, sizeof(w))) {
			pmon_why_add(t->skipped, sizeof(t->skipped), "; ", "the line of %.47s %s %d: %s",
				     e[i].box, pmon_reg_kind_name(e[i].kind), e[i].idx, w);
			t->first = t->first ? t->first : PMON_EINVAL;
			e[i].cpu = -2;                 /* not a box pmon may touch */
			continue;
		}
		if (!strcmp(e[i].box, PMON_JOURNAL_PREFETCH) ? from_prefetch(m, &e[i], flags, t)
		    : from_line(m, &e[i], &r, flags, t))
			kept[keep++] = e[i];
	}
	if (*had && (keep != n || bad[0]))
		rc = pmon_journal_replace(m->run_dir, s, kept, keep, why, len);
	free(kept);
	*ep = e;
	*np = n;
	return rc;
}

/* Did the journal name box (pmu name, uncore)? */
static int journaled(const struct pmon_journal_entry *e, int n, const char *box)
{
	for (int i = 0; i < n; i++)
		if (e[i].cpu == -1 && !strcmp(e[i].box, box))
			return 1;
	return 0;
}

/* PMON_RESET_ALL: the uncore boxes the journal did not name, to power-on. */
static void clear_all(struct pmon_machine *m, int s, unsigned flags, const struct pmon_journal_entry *e,
		      int ne, struct tally *t)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	for (int p = 0; p < npmus; p++) {
		const struct pmon_box_type *bt = pmus[p].type;
		struct pmon_box_regs r;
		char why[PMON_WHY_LEN], name[160], on[512] = "";
		uint64_t v;
		if (core_pmu(&pmus[p]) || pmon_regs_resolve(m, p, s, -1, &r) || journaled(e, ne, pmus[p].name))
			continue;
		int rc = PMON_OK;
		/* a control enabled: another agent counts there */
		for (int c = 0; c <= bt->ncounters && !rc; c++) {
			enum pmon_reg_kind k = c < bt->ncounters ? REG_CTL : REG_FIXED_CTL;
			uint64_t en = c < bt->ncounters ? PMON_CTL_EN : bt->fixed_en;
			if (c == bt->ncounters && !bt->has_fixed)
				break;
			if ((rc = get(m, &r, k, c < bt->ncounters ? c : 0, &v, why, sizeof(why)))) {
				pmon_reg_name(&r, k, c < bt->ncounters ? c : 0, name, sizeof(name));
				failed(t, name, why, rc);
			} else if (v & en) {
				pmon_reg_name(&r, k, c < bt->ncounters ? c : 0, name, sizeof(name));
				pmon_why_add(on, sizeof(on), ", ", "%s = 0x%llx", name, (unsigned long long)v);
			}
		}
		if (rc)
			continue;
		if (on[0] && !(flags & PMON_RESET_FORCE)) {
			pmon_why_add(t->busy, sizeof(t->busy), "; ", "%s (%s)", pmus[p].name, on);
			continue;
		}
		int n = 0;
#define CLEAR(k, i) do { if ((rc = put(m, &r, k, i, 0, 0, ~0ull, why, sizeof(why)))) { \
			pmon_reg_name(&r, k, i, name, sizeof(name)); failed(t, name, why, rc); } \
		else n++; } while (0)
		if (bt->has_box_ctl)
			CLEAR(REG_BOX_CTL, 0);
		for (int c = 0; c < bt->ncounters; c++)
			CLEAR(REG_CTL, c);
		if (bt->has_fixed)
			CLEAR(REG_FIXED_CTL, 0);
		for (int f = 0; f < bt->nfregs; f++)
			if (!bt->fregs[f].extra_dev || r.has_extra)
				CLEAR(REG_FILTER, f);
		/* the global control's enable bits (its other bits are not pmon's) */
		if (bt->msr_glb_ctl) {
			if ((rc = get(m, &r, REG_GLOBAL_CTL, 0, &v, why, sizeof(why))) ||
			    (rc = put(m, &r, REG_GLOBAL_CTL, 0, v, 0,
				      pmon_reg_writable(&r, REG_GLOBAL_CTL, 0), why, sizeof(why)))) {
				pmon_reg_name(&r, REG_GLOBAL_CTL, 0, name, sizeof(name));
				failed(t, name, why, rc);
			} else {
				n++;
			}
		}
#undef CLEAR
		t->all_cleared += n;
		pmon_why_add(t->cleared, sizeof(t->cleared), ", ", "%s%s", pmus[p].name,
			     on[0] ? " (enabled, cleared by --force)" : "");
	}
}

/* The report line of socket s into why. */
static void report_socket(const struct pmon_machine *m, int s, unsigned flags, int had,
			  const struct tally *t, char *why, size_t len)
{
	why[0] = 0;
	if (had)
		pmon_why_add(why, len, "", "socket %d: %d register(s) put back from the journal "
			     "%s/socket%d.journal, %d already held their original value", s, t->written,
			     m->run_dir, s, t->already);
	else
		pmon_why_add(why, len, "", "socket %d: no journal (%s/socket%d.journal): nothing to "
			     "put back", s, m->run_dir, s);
	if (t->theirs[0])
		pmon_why_add(why, len, "; ", "left alone, as they no longer hold what pmon wrote (another "
			     "agent's now; --force writes them): %s", t->theirs);
	if (t->alone[0])
		pmon_why_add(why, len, "; ", "left alone, as another agent took them over while pmon "
			     "counted (the journal keeps them so): %s", t->alone);
	if (t->skipped[0])
		pmon_why_add(why, len, "; ", "journal lines skipped and removed, nothing written for "
			     "them: %s", t->skipped);
	if (flags & PMON_RESET_ALL) {
		pmon_why_add(why, len, "; ", "--all: %d PMON control, fixed control, filter and box "
			     "control register(s) of the boxes pmon has no record of set to their power-on "
			     "value 0 (%s)", t->all_cleared, t->cleared[0] ? t->cleared : "none");
		if (t->busy[0])
			pmon_why_add(why, len, "; ", "--all left alone the boxes where a control is enabled "
				     "(another agent counts there; --force clears them too): %s", t->busy);
	} else if (!had) {
		pmon_why_add(why, len, "; ", "nothing written (`pmon reset --all` clears the PMON "
			     "registers pmon has no record of)");
	}
	if (t->left[0])
		pmon_why_add(why, len, "; ", "registers left changed after retries: %s", t->left);
}

int pmon_machine_reset_with(pmon_machine_t *m, int socket, unsigned flags, char *report, size_t len)
{
	int s0 = socket < 0 ? 0 : socket, s1 = socket < 0 ? m->topo.nsockets - 1 : socket, first = 0;
	size_t n = 0;
	if (report && len)
		report[0] = 0;
	if (socket >= m->topo.nsockets || socket < -1)
		return pmon_why(report, len, PMON_ERANGE, "socket %d: this machine has sockets 0-%d",
				socket, m->topo.nsockets - 1);
	if (flags & ~(unsigned)(PMON_RESET_ALL | PMON_RESET_FORCE))
		return pmon_why(report, len, PMON_EINVAL, "reset flags 0x%x: only PMON_RESET_ALL and "
				"PMON_RESET_FORCE exist", flags);
	for (int s = s0; s <= s1; s++) {
		struct pmon_boxlocks L;
		struct pmon_journal_entry *e = NULL;
		struct tally *t = calloc(1, sizeof(*t));
		char why[16384];
		int ne = 0, had = 0, rc;
		if (!t)
			return pmon_why(report, len, PMON_ENOMEM, "out of memory");
		pmon_boxlocks_init(&L, m->run_dir);
		rc = lock_socket(m, &L, s, why, sizeof(why));
		/* an emulated machine dies with its process: it never has a journal */
		if (!rc && !m->emulated)
			rc = from_journal(m, s, flags, t, &e, &ne, &had, why, sizeof(why));
		if (!rc && (flags & PMON_RESET_ALL))
			clear_all(m, s, flags, e, ne, t);
		if (!rc) {
			report_socket(m, s, flags, had, t, why, sizeof(why));
			rc = t->first;
		}
		free(e);
		free(t);
		pmon_boxlocks_fini(&L);
		if (rc && !first)
			first = rc;
		if (report && n < len)
			n += (size_t)snprintf(report + n, len - n, "%s%s", n ? "\n" : "", why);
	}
	return first;
}

int pmon_machine_reset(pmon_machine_t *m, int socket, char *report, size_t len)
{
	return pmon_machine_reset_with(m, socket, 0, report, len);
}
