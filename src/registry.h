/*
 * registry.h - the live sessions of one machine, and the lock that orders
 * their starts and stops.
 *
 * The registry knows nothing of what it holds: each entry comes with the
 * function that closes it, so the machine can close whatever is still open
 * when it is closed itself, without knowing about sessions.
 */
#ifndef PMON_REGISTRY_H
#define PMON_REGISTRY_H

#include <pthread.h>

struct pmon_registry_entry {
	void *item;
	void (*close)(void *item);   /* must remove the item from the registry */
};

struct pmon_registry {
	pthread_mutex_t lock;        /* held while sessions start or stop */
	struct pmon_registry_entry *e;
	int n, cap;
};

void pmon_registry_init(struct pmon_registry *r);
/* Close every entry still registered (newest first), then free the list. */
void pmon_registry_fini(struct pmon_registry *r);
/* PMON_OK or PMON_ENOMEM. */
int pmon_registry_add(struct pmon_registry *r, void *item, void (*close)(void *item));
void pmon_registry_remove(struct pmon_registry *r, void *item);
void pmon_registry_lock(struct pmon_registry *r);
void pmon_registry_unlock(struct pmon_registry *r);
/* The entries, for a caller that holds the lock. */
int pmon_registry_count(const struct pmon_registry *r);
void *pmon_registry_item(const struct pmon_registry *r, int i);

#endif
