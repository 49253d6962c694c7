/* registry.c - the live sessions of one machine (see registry.h). */
#include <stdlib.h>

#include "pmon/pmon.h"
#include "registry.h"

void pmon_registry_init(struct pmon_registry *r)
{
	pthread_mutex_init(&r->lock, NULL);
	r->e = NULL;
	r->n = r->cap = 0;
}

void pmon_registry_fini(struct pmon_registry *r)
{
	while (r->n > 0) {
		struct pmon_registry_entry last = r->e[r->n - 1];
		last.close(last.item);
		/* a close that forgot to unregister would loop forever */
		if (r->n > 0 && r->e[r->n - 1].item == last.item)
			r->n--;
	}
	free(r->e);
	r->e = NULL;
	r->cap = 0;
	pthread_mutex_destroy(&r->lock);
}

int pmon_registry_add(struct pmon_registry *r, void *item, void (*close)(void *item))
{
	int rc = PMON_OK;
	pthread_mutex_lock(&r->lock);
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 8;
		struct pmon_registry_entry *e = realloc(r->e, sizeof(*e) * (size_t)cap);
		if (!e)
			rc = PMON_ENOMEM;
		else {
			r->e = e;
			r->cap = cap;
		}
	}
	if (rc == PMON_OK)
		r->e[r->n++] = (struct pmon_registry_entry){ item, close };
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void pmon_registry_remove(struct pmon_registry *r, void *item)
{
	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < r->n; i++)
		if (r->e[i].item == item) {
			r->e[i] = r->e[--r->n];
			break;
		}
	pthread_mutex_unlock(&r->lock);
}

void pmon_registry_lock(struct pmon_registry *r) { pthread_mutex_lock(&r->lock); }
void pmon_registry_unlock(struct pmon_registry *r) { pthread_mutex_unlock(&r->lock); }
int pmon_registry_count(const struct pmon_registry *r) { return r->n; }

void *pmon_registry_item(const struct pmon_registry *r, int i)
{
	return i >= 0 && i < r->n ? r->e[i].item : NULL;
}
