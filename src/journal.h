/*
 * journal.h - the original values of the registers pmon is about to change,
 * kept on disk so that `pmon reset` can put them back after a crash.
 *
 * One small text file per socket in the run directory (boxlock.h):
 *     DIR/socket0.journal
 * one line per register:
 *     box=snbep_unc_pcu cpu=-1 reg=filter idx=0 value=0x0 mask=0xffffffffffffffff
 * (cpu: the CPU of a core-PMU box, -1 for uncore boxes; mask: the bits of the
 * register that are pmon's, all ones but for IA32_PERF_GLOBAL_CTRL).  A mask
 * of 0 marks a register another agent took over while pmon counted (found
 * changed from what pmon wrote; value: what was found): no bit of it is
 * pmon's, so neither the stop nor `pmon reset` writes it, and the line stays
 * until a session of pmon journals that register again.  Every
 * change rewrites the file whole, through a temporary file and rename(), so
 * a reader sees the old or the new journal, never a torn one; changes of
 * several processes are serialized by a lock on DIR/socketN.journal.lock.
 * A box's lines are added before its first register is written and dropped
 * when its owner has restored it (but for the lines of mask 0); the file is
 * removed when it holds no line.
 */
#ifndef PMON_JOURNAL_H
#define PMON_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "regs.h"

struct pmon_journal_entry {
	char box[48];             /* PMU name: "snbep_unc_pcu" */
	int cpu;                  /* core PMU: its CPU; -1 for uncore boxes */
	enum pmon_reg_kind kind;
	int idx;
	uint64_t value, mask;
};

/* Add the entries not yet in the socket's journal (same box, cpu, kind and
 * idx: the first value stays, it is the oldest, unless its mask is 0: then
 * the new entry replaces it).  PMON_OK or an error with why. */
int pmon_journal_add(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		     char *why, size_t len);
/* Mark these registers as another agent's: their entries (added if
 * missing) get mask 0 and the value found in them. */
int pmon_journal_disown(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			char *why, size_t len);
/* Drop every entry of the box (pmu name, cpu) but those of mask 0. */
int pmon_journal_drop(const char *dir, int socket, const char *box, int cpu, char *why, size_t len);
/* The socket's entries (*e malloc'ed, free it); *n = 0 and PMON_OK when
 * there is no journal. */
int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *why, size_t len);

const char *pmon_reg_kind_name(enum pmon_reg_kind k);

#endif
