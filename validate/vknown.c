/*
 * vknown.c - understood deviations (vknown.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vknown.h"

void vknown_free(struct vknown *k)
{
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

/* Split line at TABs into at most max fields; returns the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = 0;
			f[n++] = p + 1;
		}
	return n;
}

static int parse_num(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) ? -1 : 0;
}

int vknown_load(const char *path, struct vknown *k, char *why, size_t len)
{
	char line[1024];
	int lineno = 0;
	memset(k, 0, sizeof(*k));
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "--known %s: %s", path, strerror(errno));
		return -1;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		snprintf(why, len, "--known %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *fl[6];
		size_t l = strlen(line);
		lineno++;
		if (l == sizeof(line) - 1 && line[l - 1] != '\n') {
			snprintf(why, len, "--known %s:%d: line longer than %zu characters", path, lineno,
				 sizeof(line) - 2);
			goto bad;
		}
		while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = 0;
		if (!l || line[0] == '#')
			continue;
		int n = fields(line, fl, 6);
		struct vknown_entry e;
		memset(&e, 0, sizeof(e));
		if (n != 5) {
			snprintf(why, len, "--known %s:%d: want 5 TAB-separated fields (kernel, event, low, "
				 "high, reason), found %d", path, lineno, n);
			goto bad;
		}
		if (!fl[0][0] || !fl[1][0] || strlen(fl[0]) >= sizeof(e.kernel) ||
		    strlen(fl[1]) >= sizeof(e.event) || strlen(fl[4]) >= sizeof(e.reason)) {
			snprintf(why, len, "--known %s:%d: empty or too long kernel, event or reason", path,
				 lineno);
			goto bad;
		}
		if (parse_num(fl[2], &e.lo) || parse_num(fl[3], &e.hi) || e.lo > e.hi) {
			snprintf(why, len, "--known %s:%d: low '%s' and high '%s' must be numbers, low <= high",
				 path, lineno, fl[2], fl[3]);
			goto bad;
		}
		if (!fl[4][0] || !strcmp(fl[4], "?")) {
			snprintf(why, len, "--known %s:%d: give the reason (the model or the erratum) for "
				 "%s %s", path, lineno, fl[0], fl[1]);
			goto bad;
		}
		snprintf(e.kernel, sizeof(e.kernel), "%s", fl[0]);
		snprintf(e.event, sizeof(e.event), "%s", fl[1]);
		snprintf(e.reason, sizeof(e.reason), "%s", fl[4]);
		struct vknown_entry *v = realloc(k->v, (k->n + 1) * sizeof(*v));
		if (!v) {
			snprintf(why, len, "--known %s: out of memory", path);
			goto bad;
		}
		k->v = v;
		k->v[k->n++] = e;
	}
	if (ferror(f)) {
		snprintf(why, len, "--known %s: read error", path);
		goto bad;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	vknown_free(k);
	return -1;
}

double vknown_ratio(const struct vcheck *c)
{
	if (c->refused || !isfinite(c->measured))
		return NAN;
	if (c->tol_kind == VTOL_ABS)
		return c->hi > 0 ? c->measured / c->hi : c->measured == 0 ? 0 : INFINITY;
	return vcheck_ratio(c);
}

size_t vknown_apply(const struct vknown *k, struct vchecks *cs)
{
	size_t n = 0;
	for (size_t i = 0; i < cs->n; i++) {
		struct vcheck *c = &cs->v[i];
		double r = vknown_ratio(c);
		if (c->pass || c->known || !isfinite(r))
			continue;
		for (size_t j = 0; j < k->n; j++) {
			const struct vknown_entry *e = &k->v[j];
			if (fnmatch(e->kernel, c->kernel, 0) || fnmatch(e->event, c->event, 0) ||
			    r < e->lo || r > e->hi)
				continue;
			c->known = strdup(e->reason);
			n += c->known != NULL;
			break;
		}
	}
	return n;
}

int vknown_record_ready(const char *path, char *why, size_t len)
{
	struct stat st;
	if (lstat(path, &st) == 0) {
		snprintf(why, len, "--record-known %s: it exists (it is not overwritten: remove it or "
			 "name another)", path);
		return -1;
	}
	if (errno != ENOENT) {
		snprintf(why, len, "--record-known %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int vknown_record(const char *path, const struct vchecks *cs, char *why, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "--record-known %s: %s%s", path, strerror(errno),
			 errno == EEXIST ? " (it is not overwritten: remove it or name another)" : "");
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		snprintf(why, len, "--record-known %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	fprintf(f, "# pmon-validate known deviations (--known): kernel<TAB>event<TAB>low<TAB>high<TAB>reason\n"
		   "# low..high bound measured/expected (measured/bound when 0 is expected).\n"
		   "# Written from a run's failures: replace each '?' with the reason (the model\n"
		   "# that bridges expectation and count, or the erratum), or delete the line.\n");
	for (size_t i = 0; i < cs->n; i++) {
		const struct vcheck *c = &cs->v[i];
		double r = vknown_ratio(c);
		if (c->pass || !isfinite(r))
			continue;
		double a = r * 0.99, b = r * 1.01;
		fprintf(f, "%s\t%s\t%.6g\t%.6g\t?\n", c->kernel, c->event, a < b ? a : b, a < b ? b : a);
	}
	if (fclose(f) != 0) {
		snprintf(why, len, "--record-known %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
