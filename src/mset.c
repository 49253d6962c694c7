/* mset.c - a metric set: metrics and raw events expanded to the boxes of
 * each socket, planned into passes (one session each) so that events that
 * cannot count together (a shared filter with another value, too few
 * counters) never do, and read as totals and intervals, exact when one
 * pass counts all the time, else scaled by the share of time each pass
 * counted (pmon/metric.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "pmon/metric.h"
#include "why.h"

struct slot {
	pmon_encoding_t enc;
	int item, k, socket, pmu, pass;
	double total;             /* finished runs of its pass */
	double live;              /* the running run's count */
	double prev;              /* the count at the previous sample */
	double tcount, icount;    /* the last sample: total and interval */
};

struct pass {
	pmon_session_t *sess;
	int *slots, nslots;       /* in the session's order */
	uint64_t en_ns;           /* time counted in finished runs */
	double prev_en, ten, ien; /* seconds: at the previous sample; last sample's */
};

struct item {
	int metric;
	char *name;
	int socket;               /* a raw event: as given (-1: every socket) */
};

struct pmon_mset {
	pmon_machine_t *m;
	struct item *items;
	int nitems;
	struct slot *slots;
	int nslots;
	struct pass *passes;
	int npasses;
	int active;               /* the running pass, -1 when stopped */
	uint64_t t0, run_t0, prev_t;
	double tsec, isec;
};

int pmon_mset_create(pmon_machine_t *m, pmon_mset_t **out)
{
	if (!m || !out)
		return PMON_EINVAL;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return PMON_ENOMEM;
	(*out)->m = m;
	(*out)->active = -1;
	return PMON_OK;
}

static void stop_active(pmon_mset_t *s)
{
	if (s->active >= 0)
		pmon_session_stop(s->passes[s->active].sess, NULL);
	s->active = -1;
}

void pmon_mset_destroy(pmon_mset_t *s)
{
	if (!s)
		return;
	stop_active(s);
	for (int p = 0; p < s->npasses; p++) {
		pmon_session_destroy(s->passes[p].sess);
		free(s->passes[p].slots);
	}
	for (int i = 0; i < s->nitems; i++)
		free(s->items[i].name);
	free(s->passes);
	free(s->slots);
	free(s->items);
	free(s);
}

/* Add slots [from, to) to pass p's session, all or none. */
static int pass_take(pmon_mset_t *s, int p, int from, int to)
{
	struct pass *ps = &s->passes[p];
	int *grown = realloc(ps->slots, sizeof(int) * (size_t)(ps->nslots + to - from));
	if (!grown)
		return PMON_ENOMEM;
	ps->slots = grown;
	for (int j = from; j < to; j++) {
		int rc = pmon_session_add(ps->sess, &s->slots[j].enc);
		if (rc) {
			/* roll back: the session again with its own slots only */
			pmon_session_clear(ps->sess);
			for (int i = 0; i < ps->nslots; i++)
				pmon_session_add(ps->sess, &s->slots[ps->slots[i]].enc);
			return rc;
		}
	}
	for (int j = from; j < to; j++) {
		s->slots[j].pass = p;
		ps->slots[ps->nslots++] = j;
	}
	return PMON_OK;
}

static int new_pass(pmon_mset_t *s)
{
	struct pass *grown = realloc(s->passes, sizeof(*grown) * (size_t)(s->npasses + 1));
	if (!grown)
		return PMON_ENOMEM;
	s->passes = grown;
	memset(&grown[s->npasses], 0, sizeof(*grown));
	int rc = pmon_session_create(s->m, &grown[s->npasses].sess);
	if (rc)
		return rc;
	return s->npasses++;
}

/* Place slots [from, to) (one unit: counted together) in the first pass
 * that takes them, else in a new one; a unit no empty session takes cannot
 * be counted at all. */
static int place(pmon_mset_t *s, int from, int to, int first_pass, char *why, size_t whylen)
{
	for (int p = first_pass; p < s->npasses; p++)
		if (pass_take(s, p, from, to) == PMON_OK)
			return PMON_OK;
	int p = new_pass(s);
	if (p < 0)
		return pmon_why(why, whylen, p, "cannot create a session: %s", pmon_strerror(p));
	int rc = pass_take(s, p, from, to);
	if (rc)
		return pmon_why(why, whylen, rc, "%s cannot be counted together with the rest of its "
				"group: %s", s->slots[from].enc.name, pmon_session_errmsg(s->passes[p].sess));
	return PMON_OK;
}

/* A slot of an encoded event. */
static int add_slot_enc(pmon_mset_t *s, const pmon_encoding_t *e, int item, int k)
{
	struct slot *grown = realloc(s->slots, sizeof(*grown) * (size_t)(s->nslots + 1));
	if (!grown)
		return PMON_ENOMEM;
	s->slots = grown;
	struct slot *sl = &grown[s->nslots];
	memset(sl, 0, sizeof(*sl));
	sl->enc = *e;
	sl->item = item;
	sl->k = k;
	sl->socket = sl->enc.socket;
	sl->pmu = sl->enc.pmu;
	s->nslots++;
	return PMON_OK;
}

static int add_slot(pmon_mset_t *s, const char *name, int item, int k, char *why, size_t whylen)
{
	char err[PMON_WHY_LEN];
	pmon_encoding_t e;
	int rc = pmon_machine_encode(s->m, name, &e, err, sizeof(err));
	if (rc)
		return pmon_why(why, whylen, rc, "%s", err);
	return add_slot_enc(s, &e, item, k);
}

static int new_item(pmon_mset_t *s, int metric, const char *name, int socket)
{
	struct item *grown = realloc(s->items, sizeof(*grown) * (size_t)(s->nitems + 1));
	if (!grown)
		return PMON_ENOMEM;
	s->items = grown;
	grown[s->nitems] = (struct item){ metric, strdup(name), socket };
	if (!grown[s->nitems].name)
		return PMON_ENOMEM;
	return s->nitems++;
}

/* Undo the slots and passes an item's failed add left. */
static void drop_from(pmon_mset_t *s, int nslots, int npasses)
{
	for (int p = 0; p < s->npasses; p++) {
		struct pass *ps = &s->passes[p];
		int n = 0;
		while (n < ps->nslots && ps->slots[n] < nslots)
			n++;
		if (n != ps->nslots) {
			ps->nslots = n;
			pmon_session_clear(ps->sess);
			for (int i = 0; i < n; i++)
				pmon_session_add(ps->sess, &s->slots[ps->slots[i]].enc);
		}
	}
	while (s->npasses > npasses) {
		s->npasses--;
		pmon_session_destroy(s->passes[s->npasses].sess);
		free(s->passes[s->npasses].slots);
	}
	s->nslots = nslots;
}

int pmon_mset_add_metric(pmon_mset_t *s, int metric, int socket, char *why, size_t whylen)
{
	pmon_metric_info_t mi;
	if (!s || s->active >= 0 || pmon_metric_get(metric, &mi))
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: bad metric or set running");
	int ns = pmon_machine_nsockets(s->m);
	if (socket >= ns)
		return pmon_why(why, whylen, PMON_ERANGE, "socket %d: the machine has %d", socket, ns);
	int nslots0 = s->nslots, npasses0 = s->npasses, counted = 0, rc = PMON_OK;
	int item = new_item(s, metric, mi.name, socket);
	if (item < 0)
		return pmon_why(why, whylen, item, "out of memory");
	/* the node filter's bits are node IDs, read from the UBoxes (a
	 * socket's node ID need not be its number) */
	unsigned all = 0;
	int nodeless = -1;
	for (int so = 0; so < ns; so++) {
		int nid = pmon_machine_socket_node(s->m, so);
		if (nid >= 0 && nid <= 7)
			all |= 1u << nid;
		else
			nodeless = so;
	}
	for (int so = socket < 0 ? 0 : socket; so < (socket < 0 ? ns : socket + 1) && !rc; so++) {
		/* every box its events name must be here */
		int present = 1;
		for (int k = 0; k < mi.nevents && present; k++) {
			pmon_metric_event_t me;
			pmon_metric_event_get(metric, k, &me);
			int any = 0;
			for (int p = 0; p < pmon_pmu_count(); p++) {
				pmon_pmu_info_t pi;
				pmon_pmu_get(p, &pi);
				any |= !strcmp(pi.box_type, me.box_type) && pmon_machine_pmu_present(s->m, p, so);
			}
			present = any;
		}
		if (!present)
			continue;
		/* one unit per pass: the pass's events on every box of the socket */
		for (int q = 0; q < mi.npasses && !rc; q++) {
			int from = s->nslots;
			for (int k = 0; k < mi.nevents && !rc; k++) {
				pmon_metric_event_t me;
				pmon_metric_event_get(metric, k, &me);
				if (me.pass != q)
					continue;
				for (int p = 0; p < pmon_pmu_count() && !rc; p++) {
					pmon_pmu_info_t pi;
					char name[PMON_MAX_NAME];
					pmon_pmu_get(p, &pi);
					if (strcmp(pi.box_type, me.box_type) || !pmon_machine_pmu_present(s->m, p, so))
						continue;
					if (me.nodes != PMON_METRIC_NODES_NONE && nodeless >= 0) {
						rc = pmon_why(why, whylen, PMON_ENODEV, "%s: the node ID of "
							      "socket %d is not known (its UBox's CPUNODEID "
							      "was not read): no node filter", mi.name, nodeless);
						break;
					}
					rc = pmon_metric_event_name(metric, k, p, so,
								    me.nodes == PMON_METRIC_NODES_NONE ? 0 :
								    1u << pmon_machine_socket_node(s->m, so), all,
								    name, sizeof(name));
					if (rc)
						rc = pmon_why(why, whylen, rc, "%s on socket %d: no node filter fits "
							      "(%d sockets)", mi.name, so, ns);
					else
						rc = add_slot(s, name, item, k, why, whylen);
				}
			}
			/* a unit of a later pass goes after the passes its
			 * earlier ones took: never with them */
			if (!rc)
				rc = place(s, from, s->nslots, q ? s->slots[from - 1].pass + 1 : 0, why,
					   whylen);
		}
		counted++;
	}
	if (!rc && !counted)
		rc = pmon_why(why, whylen, PMON_ENODEV, "%s: its boxes are not on %s", mi.name,
			      socket < 0 ? "this machine" : "that socket");
	if (rc) {
		drop_from(s, nslots0, npasses0);
		free(s->items[--s->nitems].name);
		return rc;
	}
	return item;
}

int pmon_mset_add_event(pmon_mset_t *s, const char *name, char *why, size_t whylen)
{
	if (!s || !name || s->active >= 0)
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: bad event or set running");
	int ns = pmon_machine_nsockets(s->m), nslots0 = s->nslots, npasses0 = s->npasses, rc = PMON_OK;
	int given = strstr(name, "socket=") || strstr(name, "cpu=");
	int item = new_item(s, -1, name, given ? 0 : -1);
	if (item < 0)
		return pmon_why(why, whylen, item, "out of memory");
	for (int so = 0; so < (given ? 1 : ns) && !rc; so++) {
		char full[PMON_MAX_NAME + 16];
		int from = s->nslots;
		if (given)
			snprintf(full, sizeof(full), "%s", name);
		else
			snprintf(full, sizeof(full), "%s:socket=%d", name, so);
		/* a name of every instance (UNC_M_CAS_COUNT.RD,
		 * uncore_imc/cas_count_read/): each box of the socket, the
		 * item their sum, as perf merges them */
		pmon_encoding_t enc[PMON_MAX_INSTANCES];
		char err[PMON_WHY_LEN];
		int n = pmon_machine_encode_all(s->m, full, enc, PMON_MAX_INSTANCES, err, sizeof(err));
		if (n < 0)
			rc = pmon_why(why, whylen, n, "%s", err);
		for (int i = 0; i < n && !rc; i++)
			rc = add_slot_enc(s, &enc[i], item, 0);
		if (!rc)
			rc = place(s, from, s->nslots, 0, why, whylen);
	}
	if (rc) {
		drop_from(s, nslots0, npasses0);
		free(s->items[--s->nitems].name);
		return rc;
	}
	return item;
}

int pmon_mset_npasses(const pmon_mset_t *s)
{
	return s ? s->npasses : 0;
}

int pmon_mset_item_count(const pmon_mset_t *s)
{
	return s ? s->nitems : 0;
}

int pmon_mset_item_get(const pmon_mset_t *s, int item, pmon_mset_item_t *out)
{
	if (!s || item < 0 || item >= s->nitems || !out)
		return PMON_ERANGE;
	const struct item *it = &s->items[item];
	pmon_metric_info_t mi;
	if (it->metric >= 0 && !pmon_metric_get(it->metric, &mi)) {
		*out = (pmon_mset_item_t){ it->metric, it->name, mi.unit, mi.scope, mi.box_type };
	} else {
		pmon_pmu_info_t pi = { 0 };
		for (int j = 0; j < s->nslots; j++)
			if (s->slots[j].item == item) {
				pmon_pmu_get(s->slots[j].pmu, &pi);
				break;
			}
		*out = (pmon_mset_item_t){ -1, it->name, "count", PMON_METRIC_BOX, pi.box_type };
	}
	return PMON_OK;
}

static int run_pass(pmon_mset_t *s, int p, char *why, size_t whylen)
{
	int rc = pmon_session_start(s->passes[p].sess);
	if (rc)
		return pmon_why(why, whylen, rc, "start: %s", pmon_session_errmsg(s->passes[p].sess));
	s->active = p;
	s->run_t0 = pmon_session_read_ns(s->passes[p].sess);
	return PMON_OK;
}

int pmon_mset_start(pmon_mset_t *s, char *why, size_t whylen)
{
	if (!s || s->active >= 0 || !s->npasses)
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: nothing to count, or running");
	for (int j = 0; j < s->nslots; j++)
		s->slots[j].total = s->slots[j].live = s->slots[j].prev = 0;
	for (int p = 0; p < s->npasses; p++)
		s->passes[p].en_ns = 0, s->passes[p].prev_en = 0;
	int rc = run_pass(s, 0, why, whylen);
	s->t0 = s->prev_t = s->run_t0;
	return rc;
}

/* The running pass's counts into its slots' live values (or, stopping, into
 * their totals). */
static int collect(pmon_mset_t *s, int stop, char *why, size_t whylen)
{
	if (s->active < 0)
		return PMON_OK;
	struct pass *ps = &s->passes[s->active];
	uint64_t *v = calloc((size_t)ps->nslots + 1, sizeof(*v));
	if (!v)
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory");
	int rc = stop ? pmon_session_stop(ps->sess, v) : pmon_session_read(ps->sess, v);
	uint64_t now = pmon_session_read_ns(ps->sess);
	if (rc)
		pmon_why(why, whylen, rc, "%s: %s", stop ? "stop" : "read", pmon_session_errmsg(ps->sess));
	for (int i = 0; i < ps->nslots && !rc; i++) {
		struct slot *sl = &s->slots[ps->slots[i]];
		if (stop)
			sl->total += (double)v[i], sl->live = 0;
		else
			sl->live = (double)v[i];
	}
	if (stop) {
		ps->en_ns += now - s->run_t0;
		s->active = -1;
	}
	free(v);
	return rc;
}

int pmon_mset_rotate(pmon_mset_t *s, char *why, size_t whylen)
{
	if (!s || s->active < 0)
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: not running");
	if (s->npasses < 2)
		return PMON_OK;
	int next = (s->active + 1) % s->npasses;
	int rc = collect(s, 1, why, whylen);
	return rc ? rc : run_pass(s, next, why, whylen);
}

static int sample(pmon_mset_t *s, int stop, char *why, size_t whylen)
{
	int act = s->active;
	struct pass *ps = act >= 0 ? &s->passes[act] : NULL;
	int rc = collect(s, stop, why, whylen);
	/* the time of the counts just read (the registers' read) */
	uint64_t now = ps ? pmon_session_read_ns(ps->sess) : pmon_machine_time_ns(s->m);
	for (int j = 0; j < s->nslots; j++) {
		struct slot *sl = &s->slots[j];
		double cur = sl->total + (sl->pass == act && !stop ? sl->live : 0);
		sl->tcount = cur;
		sl->icount = cur - sl->prev;
		sl->prev = cur;
	}
	for (int p = 0; p < s->npasses; p++) {
		struct pass *ps = &s->passes[p];
		double en = (double)ps->en_ns + (p == act && !stop ? (double)(now - s->run_t0) : 0);
		en *= 1e-9;
		ps->ten = en;
		ps->ien = en - ps->prev_en;
		ps->prev_en = en;
	}
	s->tsec = (double)(now - s->t0) * 1e-9;
	s->isec = (double)(now - s->prev_t) * 1e-9;
	s->prev_t = now;
	return rc;
}

int pmon_mset_sample(pmon_mset_t *s, char *why, size_t whylen)
{
	if (!s || s->active < 0)
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: not running");
	return sample(s, 0, why, whylen);
}

int pmon_mset_stop(pmon_mset_t *s, char *why, size_t whylen)
{
	if (!s || s->active < 0)
		return pmon_why(why, whylen, PMON_EINVAL, "metric set: not running");
	return sample(s, 1, why, whylen);
}

double pmon_mset_seconds(const pmon_mset_t *s, int what)
{
	return !s ? 0 : what == PMON_MSET_INTERVAL ? s->isec : s->tsec;
}

/* Slot j's count over the totals or the interval, scaled to the whole time
 * when its pass counted part of it; -1 when its pass never counted. */
static double estimate(const pmon_mset_t *s, int what, int j, double *share)
{
	const struct slot *sl = &s->slots[j];
	const struct pass *ps = &s->passes[sl->pass];
	double en = what == PMON_MSET_INTERVAL ? ps->ien : ps->ten;
	double all = what == PMON_MSET_INTERVAL ? s->isec : s->tsec;
	double c = what == PMON_MSET_INTERVAL ? sl->icount : sl->tcount;
	if (s->npasses == 1) {
		*share = 1;
		return c;
	}
	*share = en > 0 && all > 0 ? en / all : 0;
	if (en <= 0)
		return -1;
	return *share > 0 ? c / *share : -1;
}

int pmon_mset_value(const pmon_mset_t *s, int what, int item, int socket, int pmu, double *value,
		    double *counted)
{
	if (!s || item < 0 || item >= s->nitems || !value)
		return PMON_EINVAL;
	const struct item *it = &s->items[item];
	pmon_metric_info_t mi = { 0 };
	pmon_pmu_info_t pi;
	double counts[PMON_METRIC_MAX_EVENTS] = { 0 }, share = 1, least = 1;
	int seen[PMON_METRIC_MAX_EVENTS] = { 0 }, nk = 1, none = 0;
	*value = 0;
	if (it->metric >= 0) {
		pmon_metric_get(it->metric, &mi);
		nk = mi.nevents;
		if (pmu >= 0 && mi.scope != PMON_METRIC_BOX)
			return PMON_EINVAL;
	}
	for (int j = 0; j < s->nslots; j++) {
		const struct slot *sl = &s->slots[j];
		if (sl->item != item || (socket >= 0 && sl->socket != socket))
			continue;
		if (pmu >= 0 && sl->pmu != pmu) {
			/* a per-box metric's other boxes (the UBox clock) count for the socket */
			if (it->metric < 0 || pmon_pmu_get(sl->pmu, &pi) || !strcmp(pi.box_type, mi.box_type))
				continue;
		}
		double c = estimate(s, what, j, &share);
		if (c < 0)
			none = 1;
		counts[sl->k] += c < 0 ? 0 : c;
		seen[sl->k] = 1;
		if (share < least)
			least = share;
	}
	for (int k = 0; k < nk; k++)
		if (!seen[k])
			return PMON_ENODEV;
	if (counted)
		*counted = least;
	if (none)
		return PMON_ERANGE;
	if (it->metric < 0) {
		*value = counts[0];
		return PMON_OK;
	}
	return pmon_metric_compute(it->metric, counts, pmon_mset_seconds(s, what), value);
}
