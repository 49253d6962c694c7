/*
 * journal_internal.h - the calls between the journal's rooms (not part of
 * journal.h's interface):
 *   journal_line.c   owners and the text of a line
 *   journal_file.c   the files: lock, cache, read and write
 *   journal.c        the operations (add, wrote, disown, drop, ...)
 */
#ifndef PMON_JOURNAL_INTERNAL_H
#define PMON_JOURNAL_INTERNAL_H

#include <stddef.h>

#include "journal.h"

#define LINE_MAX_BYTES 400

#pragma GCC visibility push(hidden)

/* journal_line.c: the same process? */
int pmon_owner_same(const struct pmon_owner *a, const struct pmon_owner *b);

/* journal_file.c */
/* Remove the temporaries a killed process left (lock held). */
void pmon_jfile_clean(int dfd, int socket);
/* Lock the socket's journal: 0 (*dfd the run directory's fd, not to
 * close; pmon_jfile_unlock() ends it), or a negative code with why. */
int pmon_jfile_lock(const char *dir, int socket, int *dfd, char *why, size_t len);
void pmon_jfile_unlock(int dfd, int socket);
/* The entries of the journal's lines that are entries; the others named in
 * bad (*nbad of them). */
int pmon_jfile_load(int dfd, const char *dir, int socket, struct pmon_journal_entry **out, int *n,
		    char *bad, size_t badlen, int *nbad, char *why, size_t len);
/* Replace the journal with these entries (none: remove it), atomically. */
int pmon_jfile_store(int dfd, const char *dir, int socket, const struct pmon_journal_entry *e,
		     int n, char *why, size_t len);
/* The journal locked and read, every line an entry (journal_file.c). */
int pmon_jfile_open_locked(const char *dir, int socket, int *fd, int *dfd,
			   struct pmon_journal_entry **cur, int *n, char *why, size_t len);

#pragma GCC visibility pop

#endif
