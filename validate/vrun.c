/*
 * vrun.c - memory, pinned threads, the counting window and check helpers
 * shared by the experiments (vrun.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <emmintrin.h>

#include "vbase.h"
#include "vrun.h"

const char *const vkernel_name[VK_N] = { "stream", "dgemm", "chase", "numa", "chan", "clock",
						    "share", "power", "dram", "lock", "partial",
						    "pfreq" };
const char *const vbreak_name[VB_N] = { "none", "umask", "channel", "socket", "wrap", "lose",
						  "snoop", "state", "victim", "r3",
						  "pcu", "dram", "metric", "lock", "partial",
						  "pfreq", "baseline", "clock" };
const char *const vbfield_name[VBF_N] = { "none", "code", "umask", "filter" };

int vbreak_field(enum vbfield f, const char *pattern, pmon_encoding_t *enc)
{
	if (f == VBF_NONE || !pattern || !strstr(enc->name, pattern))
		return 0;
	if (f == VBF_CODE) {
		if (enc->fixed)
			return 0;
		enc->ctl ^= 0x01;
		return 1;
	}
	if (f == VBF_UMASK) {
		uint64_t um = (enc->ctl >> 8) & 0xff;
		enc->ctl ^= (um ? um & -um : 1) << 8;
		return 1;
	}
	for (int w = 0; w < PMON_FILTER_WORDS; w++) {
		uint64_t v = enc->filt[w];
		if (!(enc->filt_used & (1u << w)))
			continue;
		enc->filt[w] ^= v ? v & -v : 1;
		return 1;
	}
	return 0;
}

double vnow_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ------------------------------------------------------------- setup */
const char *vbackend_choose(const char *opt, const char *env, char *why, size_t len)
{
	const char *v = opt ? opt : env && *env ? env : "auto";
	if (!strcasecmp(v, "auto"))
		return "auto";
	if (!strcasecmp(v, "sim"))
		return "sim";
	if (!strcasecmp(v, "msr") || !strcasecmp(v, "hw"))
		return "msr";
	if (opt)
		snprintf(why, len, "--backend=%s: want auto, sim or msr", opt);
	else
		snprintf(why, len, "PMON_BACKEND=%s is not a backend: use sim, msr or auto", env);
	return NULL;
}

/* The text of key's item in spec ("load=100M"), or "" if absent. */
static void spec_item(const char *spec, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	buf[0] = 0;
	for (const char *p = spec; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=')
			snprintf(buf, len, "%.*s", (int)n, p);
		p += n + (p[n] == ',');
	}
}

int vshape_screen(const char *spec, const char *src, struct pmon_sim_shape *shape, char *note,
		  size_t notelen, char *why, size_t whylen)
{
	char item[128], perr[256];

	note[0] = 0;
	if (pmon_sim_shape_parse(spec ? spec : "", shape, perr, sizeof(perr)) != 0) {
		snprintf(why, whylen, "machine shape (%s): %s", src, perr);
		return -1;
	}
	/* load= and noise= (background traffic) are accepted: the idle
	 * baseline takes their background out (vbase.h). */
	if (shape->clock != PMON_SIM_CLOCK_WALL) {
		spec_item(spec, "clock", item, sizeof(item));
		if (item[0])
			snprintf(note, notelen,
				 "%s %s replaced by clock=wall: the clock checks and the counting "
				 "windows need emulated time to follow the wall clock", src, item);
		shape->clock = PMON_SIM_CLOCK_WALL;
	}
	return 0;
}

void vnote(struct vctx *c, const char *fmt, ...)
{
	va_list ap;
	if (c->nnotes == (int)(sizeof(c->notes) / sizeof(c->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(c->notes[c->nnotes], sizeof(c->notes[0]), fmt, ap);
	va_end(ap);
	fprintf(stderr, "pmon-validate: note: %s\n", c->notes[c->nnotes++]);
}

int voutdir_ready(const char *dir, char *why, size_t len)
{
	char probe[4096];
	if (!*dir) {
		snprintf(why, len, "--output: empty directory name");
		return -1;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(why, len, "cannot create the report directory %s: %s", dir, strerror(errno));
		return -1;
	}
	/* Create a file there, as the reports will be. */
	snprintf(probe, sizeof(probe), "%s/.pmon-validate-%ld", dir, (long)getpid());
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		snprintf(why, len, "cannot write reports in %s: %s", dir, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* ------------------------------------------------------------- memory */
int vremote(const struct vctx *c)
{
	if (c->o.remote >= 0)
		return c->o.remote;
	return c->g.sockets > 1 ? (c->o.socket + 1) % c->g.sockets : c->o.socket;
}

int vhome(const struct vctx *c)
{
	return c->o.place_remote ? vremote(c) : c->o.socket;
}

/* Hardware: sz bytes bound to socket's NUMA node, every page touched, and
 * a check that none is elsewhere (a FAIL stops the experiment: the kernel
 * would measure memory that is not where its expectations say). */
static int hw_alloc(struct vctx *c, struct karr *a, size_t sz, int socket)
{
	char why[256] = "", event[96];
	const char *kernel = c->phase ? c->phase : "placement";
	int node = c->place.node_of_socket(c->place.ctx, socket, why, sizeof(why));

	snprintf(event, sizeof(event), "pages off socket %d's NUMA node", socket);
	if (node >= 0) {
		snprintf(event, sizeof(event), "pages off NUMA node %d (socket %d)", node, socket);
		a->host = c->place.alloc(c->place.ctx, sz, node, why, sizeof(why));
	}
	if (!a->host) {
		vcheck_abs(&c->checks, kernel, event, "pages", NAN, 0, why);
		snprintf(c->err, sizeof(c->err), "memory for socket %d: %s", socket, why);
		c->place_failed = 1;
		return PMON_EIO;
	}
	if (c->planning)        /* the plan: bound, checked in the run */
		return 0;
	long off = c->place.misplaced(c->place.ctx, a->host, sz, node, why, sizeof(why));
	if (off < 0) {
		vnote(c, "placement not verified: %s", why);
		return 0;
	}
	struct vcheck *k = vcheck_abs(&c->checks, kernel, event, "pages", (double)off, 0,
				      "bound with hwloc (HWLOC_MEMBIND_BIND), touched, where read back");
	if (k && !k->pass) {
		snprintf(c->err, sizeof(c->err), "%ld of %zu pages for socket %d are not on its NUMA "
			 "node %d", off, sz / 4096, socket, node);
		c->place.free(c->place.ctx, a->host, sz);
		a->host = NULL;
		c->place_failed = 1;
		return PMON_EIO;
	}
	return 0;
}

int varr_alloc(struct vctx *c, struct karr *a, size_t bytes, enum vplace place, int socket)
{
	memset(a, 0, sizeof(*a));
	size_t sz = (bytes + 4095) & ~(size_t)4095;
	if (c->hw) {
		int rc = hw_alloc(c, a, sz, socket);
		if (rc == 0)
			a->bytes = bytes;
		return rc;
	}
	a->host = aligned_alloc(4096, sz);
	if (!a->host) {
		snprintf(c->err, sizeof(c->err), "out of memory for %zu bytes", sz);
		return PMON_ENOMEM;
	}
	a->bytes = bytes;
	if (c->sim) {
		int rc = pmon_sim_mem_alloc(c->sim, sz,
					    place == VP_SOCKET ? PMON_SIM_ON_SOCKET : PMON_SIM_FIRST_TOUCH,
					    socket, &a->vbase);
		if (rc != 0) {
			snprintf(c->err, sizeof(c->err),
				 "emulated memory: %zu bytes on socket %d: %s", sz, socket,
				 pmon_strerror(rc));
			free(a->host);
			a->host = NULL;
			return rc;
		}
	}
	return 0;
}

void varr_free(struct vctx *c, struct karr *a)
{
	if (c->sim && a->vbase)
		pmon_sim_mem_free(c->sim, a->vbase);
	if (c->hw)
		c->place.free(c->place.ctx, a->host, (a->bytes + 4095) & ~(size_t)4095);
	else
		free(a->host);
	memset(a, 0, sizeof(*a));
}

/* One page bound to socket's node and read back: 0, or -1 with why. */
static int probe_socket(struct vctx *c, int socket, char *why, size_t len)
{
	int node = c->place.node_of_socket(c->place.ctx, socket, why, len);
	if (node < 0)
		return -1;
	void *p = c->place.alloc(c->place.ctx, 4096, node, why, len);
	if (!p)
		return -1;
	long off = c->place.misplaced(c->place.ctx, p, 4096, node, why, len);
	c->place.free(c->place.ctx, p, 4096);
	if (off > 0)
		snprintf(why, len, "a page bound to socket %d's NUMA node %d is elsewhere", socket, node);
	return off == 0 ? 0 : off < 0 ? 1 : -1;
}

int vplace_preflight(struct vctx *c)
{
	char why[160];
	c->remote_ok = 1;
	if (!c->hw)
		return 0;
	int rc = probe_socket(c, c->o.socket, why, sizeof(why));
	if (rc < 0) {
		snprintf(c->err, sizeof(c->err), "local memory (socket %d) cannot be placed: %s",
			 c->o.socket, why);
		return -1;
	}
	if (c->g.sockets < 2)
		return 0;
	rc = probe_socket(c, vremote(c), why, sizeof(why));
	if (rc < 0) {
		c->remote_ok = 0;
		snprintf(c->remote_why, sizeof(c->remote_why), "memory cannot be placed on the remote "
			 "socket %d: %s", vremote(c), why);
		vnote(c, "%s", c->remote_why);
	}
	return 0;
}

int vremote_ok(struct vctx *c, const char *what)
{
	if (c->remote_ok)
		return 1;
	vskip(c, "%s: not run: %s", what, c->remote_why);
	return 0;
}

/* ------------------------------------------------------------- window */
static void clflush_arrays(struct karr *const *arrs, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = arrs[i]->host;
		for (size_t off = 0; off < arrs[i]->bytes; off += 64)
			_mm_clflush(p + off);
	}
	_mm_mfence();
}

int vwin_clean(struct vctx *c, struct karr *const *arrs, int n)
{
	if (c->planning)
		return 0;
	if (c->sim) {
		int rc = pmon_sim_flush_caches(c->sim);
		if (rc)
			snprintf(c->err, sizeof(c->err), "flush caches: %s", pmon_strerror(rc));
		return rc;
	}
	clflush_arrays(arrs, n);
	return 0;
}

int vwin_start(struct vctx *c, struct vevents *e, double *t0)
{
	if (c->planning) {
		*t0 = vnow_ns();
		return 0;
	}
	int rc = e->idle_done ? 0 : vbase_idle(c, e);
	e->idle_done = 0;
	if (rc)
		return rc;
	e->outer0 = vnow_ns();
	rc = vev_start(e);
	if (rc) {
		snprintf(c->err, sizeof(c->err), "%s", e->err);
		return rc;
	}
	e->t_start = e->s ? pmon_session_read_ns(e->s) : 0;
	*t0 = vnow_ns();
	return 0;
}

int vwin_stop(struct vctx *c, struct vevents *e, int flush, struct karr *const *arrs, int n,
	      double *t1)
{
	if (c->planning) {
		*t1 = vnow_ns() + 1;
		return 0;
	}
	/* The kernels' end: rates (STREAM's MB/s, DGEMM's flop/s) exclude
	 * the write-back below, which is counted but is not the kernel's. */
	*t1 = vnow_ns();
	if (flush) {
		int rc = vwin_clean(c, arrs, n);
		if (rc)
			return rc;
	}
	int rc = vev_stop(e);
	e->outer1 = vnow_ns();
	if (rc) {
		snprintf(c->err, sizeof(c->err), "%s", e->err);
		return rc;
	}
	uint64_t end = e->s ? pmon_session_read_ns(e->s) : 0;
	vbase_scale(c, e, end > e->t_start ? end - e->t_start : 0);
	return 0;
}

/* ------------------------------------------------------------- checks */
static void vskip_v(struct vctx *c, int n, const char *fmt, va_list ap)
{
	char what[sizeof(c->skips[0].what)];
	vsnprintf(what, sizeof(what), fmt, ap);
	c->nskipped += n;
	for (int i = 0; i < c->nskips; i++)
		if (strcmp(c->skips[i].what, what) == 0) {
			c->skips[i].times += n;
			return;
		}
	if (c->nskips == (int)(sizeof(c->skips) / sizeof(c->skips[0])))
		return;
	memcpy(c->skips[c->nskips].what, what, sizeof(what));
	c->skips[c->nskips++].times = n;
}

void vskip(struct vctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vskip_v(c, 1, fmt, ap);
	va_end(ap);
}

void vskip_n(struct vctx *c, int n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vskip_v(c, n, fmt, ap);
	va_end(ap);
}

int vadd(struct vctx *c, struct vevents *e, const char *kernel, const char *fmt, ...)
{
	char name[PMON_MAX_NAME], why[256];
	pmon_encoding_t enc;
	va_list ap;

	(void)kernel;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	int rc = pmon_machine_encode(c->m, name, &enc, why, sizeof(why));
	int i, broken = 0;
	if (rc == 0 && vbreak_field(c->o.brk_field, c->o.brk_pat, &enc)) {
		/* As a wrong table entry would program it; asked again. */
		broken = 1;
		c->brk_hits++;
		rc = pmon_machine_event_modeled(c->m, &enc, why, sizeof(why));
	}
	if (rc == PMON_ENOTMODELED || rc == PMON_ENODEV) {
		c->nrefused++;
		i = vev_refuse(e, name, why);
	} else if (rc != 0) {
		snprintf(c->err, sizeof(c->err), "%.200s: %.250s", name, why);
		return -2;
	} else {
		i = vev_add_enc(e, &enc);
		if (i >= 0)
			e->base[i] = vbase_applies(&enc);
	}
	if (i < 0) {
		snprintf(c->err, sizeof(c->err), "%s", e->err);
		return -2;
	}
	if (broken)
		vev_mark_broken(e, i);
	return i;
}

void vcheck_events(struct vcheck *k, struct vevents *e, const int *idx, int n)
{
	const char *names[2 * VEV_MAX];
	int m = 0;
	free(k->counts);
	k->counts = malloc(sizeof(*k->counts) * (size_t)(n > 0 ? n : 1));
	k->ncounts = 0;
	for (int i = 0; i < n && m < 2 * VEV_MAX; i++) {
		if (e->broken[idx[i]])
			k->broken = 1;
		if (e->refused[idx[i]])
			vcheck_refuse(k, e->refused[idx[i]]);
		if (k->counts)
			k->counts[k->ncounts++] = e->val[idx[i]];
		names[m++] = e->name[idx[i]];
	}
	/* Out of memory: the check keeps no list (the JSON says null), never
	 * a cut one. */
	(void)vcheck_set_events(k, names, m);
}

/* --break=lose: drop the run's first check of a step (the plan still has
 * it), as a check silently lost on the way would be. */
static int lose(struct vctx *c, size_t first_of_step)
{
	if (c->o.brk != VB_LOSE || c->planning || c->checks.n != first_of_step ||
	    c->lost_at == first_of_step + 1)
		return 0;
	c->lost_at = first_of_step + 1;
	c->lost++;
	return 1;
}

static int all_valid(const int *idx, int n)
{
	for (int i = 0; i < n; i++)
		if (idx[i] < 0)
			return 0;
	return n > 0;
}

struct vcheck *vcheck_sum(struct vctx *c, struct vevents *e, const char *kernel,
			  const char *event, const char *unit, const int *idx, int n, double per,
			  double expected, struct vband b)
{
	if (!all_valid(idx, n) || lose(c, c->step_first))
		return NULL;
	double m = vev_sum(e, idx, n, NULL) / per;
	struct vcheck *k = vcheck_rel(&c->checks, kernel, event, unit, expected, m, b.lo, b.hi, b.why);
	if (k) {
		k->per = per;
		vcheck_events(k, e, idx, n);
		vbase_attach(k, e, idx, n, per);
	}
	return k;
}

struct vcheck *vcheck_quot(struct vctx *c, struct vevents *e, const char *kernel,
			   const char *event, const char *unit, const int *num, const int *den,
			   int n, double expected, struct vband b)
{
	if (!all_valid(num, n) || !all_valid(den, n) || lose(c, c->step_first))
		return NULL;
	double d = vev_sum(e, den, n, NULL);
	double m = d > 0 ? vev_sum(e, num, n, NULL) / d : NAN;
	struct vcheck *k = vcheck_rel(&c->checks, kernel, event, unit, expected, m, b.lo, b.hi, b.why);
	if (k) {
		int both[2 * VEV_MAX];
		for (int i = 0; i < n; i++) {
			both[i] = num[i];
			both[n + i] = den[i];
		}
		vcheck_events(k, e, both, 2 * n);
		vbase_attach_quot(k, e, num, den, n);
	}
	return k;
}

struct vcheck *vcheck_zero(struct vctx *c, struct vevents *e, const char *kernel,
			   const char *event, const char *unit, const int *idx, int n, double per,
			   double bound, const char *why)
{
	if (!all_valid(idx, n) || lose(c, c->step_first))
		return NULL;
	double m = vev_sum(e, idx, n, NULL) / per;
	struct vcheck *k = vcheck_abs(&c->checks, kernel, event, unit, m, bound, why);
	if (k) {
		k->per = per;
		vcheck_events(k, e, idx, n);
		vbase_attach(k, e, idx, n, per);
	}
	return k;
}

void vprogress(struct vctx *c, const char *fmt, ...)
{
	va_list ap;
	if (c->planning)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}
