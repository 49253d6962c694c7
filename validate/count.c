/*
 * count.c - counting by event name through the public session API.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"

void vev_init(struct vevents *e, pmon_machine_t *m)
{
	memset(e, 0, sizeof(*e));
	e->m = m;
}

int vev_add(struct vevents *e, const char *fmt, ...)
{
	char name[PMON_MAX_NAME], why[256];
	pmon_encoding_t enc;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (pmon_machine_encode(e->m, name, &enc, why, sizeof(why)) != 0) {
		snprintf(e->err, sizeof(e->err), "%.200s: %.250s", name, why);
		return -1;
	}
	return vev_add_enc(e, &enc);
}

int vev_add_enc(struct vevents *e, const pmon_encoding_t *enc)
{
	int rc;
	if (e->n == VEV_MAX) {
		snprintf(e->err, sizeof(e->err), "%s: more than %d events in one window", enc->name,
			 VEV_MAX);
		return -1;
	}
	if (!e->s && (rc = pmon_session_create(e->m, &e->s)) != 0) {
		snprintf(e->err, sizeof(e->err), "session: %s", pmon_strerror(rc));
		return -1;
	}
	rc = pmon_session_add(e->s, enc);
	if (rc != 0) {
		snprintf(e->err, sizeof(e->err), "%s: %s (%s)", enc->name, pmon_strerror(rc),
			 pmon_session_errmsg(e->s));
		return -1;
	}
	snprintf(e->name[e->n], sizeof(e->name[e->n]), "%s", enc->name);
	e->broken[e->n] = 0;
	e->refused[e->n] = NULL;
	e->sidx[e->n] = pmon_session_count(e->s) - 1;
	e->val[e->n] = 0;
	e->base[e->n] = 0;
	e->rate[e->n] = e->rate_sp[e->n] = 0;
	e->bg[e->n] = e->bgsub[e->n] = e->bgsp[e->n] = 0;
	return e->n++;
}

int vev_refuse(struct vevents *e, const char *name, const char *why)
{
	if (e->n == VEV_MAX) {
		snprintf(e->err, sizeof(e->err), "%s: more than %d events in one window", name, VEV_MAX);
		return -1;
	}
	if (!(e->refused[e->n] = strdup(why))) {
		snprintf(e->err, sizeof(e->err), "%s: out of memory", name);
		return -1;
	}
	snprintf(e->name[e->n], sizeof(e->name[e->n]), "%s", name);
	e->broken[e->n] = 0;
	e->sidx[e->n] = -1;
	e->val[e->n] = 0;
	e->base[e->n] = 0;
	e->rate[e->n] = e->rate_sp[e->n] = 0;
	e->bg[e->n] = e->bgsub[e->n] = e->bgsp[e->n] = 0;
	return e->n++;
}

void vev_mark_broken(struct vevents *e, int i)
{
	if (i >= 0 && i < e->n)
		e->broken[i] = 1;
}

int vev_start(struct vevents *e)
{
	int rc = e->s ? pmon_session_start(e->s) : 0;
	if (rc != 0)
		snprintf(e->err, sizeof(e->err), "start: %s (%s)", pmon_strerror(rc),
			 pmon_session_errmsg(e->s));
	return rc;
}

int vev_stop(struct vevents *e)
{
	uint64_t v[VEV_MAX];
	int rc = e->s ? pmon_session_stop(e->s, v) : 0;
	if (rc != 0) {
		snprintf(e->err, sizeof(e->err), "stop: %s (%s)", pmon_strerror(rc),
			 pmon_session_errmsg(e->s));
		return rc;
	}
	for (int i = 0; i < e->n; i++)
		e->val[i] = e->sidx[i] >= 0 ? v[e->sidx[i]] : 0;
	return 0;
}

void vev_free(struct vevents *e)
{
	if (e->s)
		pmon_session_destroy(e->s);
	e->s = NULL;
	for (int i = 0; i < e->n; i++) {
		free(e->refused[i]);
		e->refused[i] = NULL;
	}
	e->n = 0;
}

double vev_sum(const struct vevents *e, const int *idx, int n, int *broken)
{
	double s = 0;
	for (int i = 0; i < n; i++) {
		s += (double)e->val[idx[i]] - e->bgsub[idx[i]];
		if (broken && e->broken[idx[i]])
			*broken = 1;
	}
	return s;
}

double vev_sum_raw(const struct vevents *e, const int *idx, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += (double)e->val[idx[i]];
	return s;
}

double vev_sum_bgsp(const struct vevents *e, const int *idx, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += e->bgsp[idx[i]];
	return s;
}

double vev_sum_bg(const struct vevents *e, const int *idx, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += e->bg[idx[i]];
	return s;
}
