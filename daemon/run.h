/*
 * run.h: one run as the daemon keeps it, typed.
 *
 * A run is what a client says of its transfer (its figures) and the
 * window on the server's clock it is judged over.  The figures arrive as
 * JSON at the API's edge (run_parse) or as C values from the transfers
 * watch; the run is kept as a struct run_rec, turned into JSON only where
 * it is saved or sent (run_json) and read back only from its saved file
 * (run_load).  The verdict engine sees it as a struct verdict_run
 * (run_view).  Nothing here touches the daemon's state: unit-tested in
 * tests/unit/t_run.c.
 */
#ifndef RUN_H
#define RUN_H

#include <stdint.h>

#include <jansson.h>

#include "verdict.h"

#define RUN_TEXT_MAX		200	/* a label or a client's name */
#define RUN_ADDR_MAX		64
#define RUN_TRANSFERS_MAX	64	/* transfers joined to one run */
#define RUN_MAX_BYTES		1e15	/* 1 PB: no benchmark moves more */
#define RUN_MAX_OPS		1e13
#define RUN_MAX_FILES		1e10
#define RUN_MAX_BLOCK		(1024.0 * 1024 * 1024)
#define RUN_MAX_SECONDS		(7 * 86400.0)
#define RUN_MAX_PID		4194304	/* the kernel's pid_max limit */
#define RUN_MAX_OFFSET		(7 * 86400.0)	/* client clock error */

/* Which figures a client gave (struct run_figures' given). */
#define RUN_LABEL	0x00001
#define RUN_CLIENT	0x00002
#define RUN_PROTOCOL	0x00004
#define RUN_OP		0x00008
#define RUN_BYTES	0x00010
#define RUN_OPS		0x00020
#define RUN_FILES	0x00040
#define RUN_BLOCK	0x00080
#define RUN_SECONDS	0x00100
#define RUN_INTERRUPTED	0x00200	/* and it was true */
#define RUN_PID		0x00400
#define RUN_COMMAND	0x00800	/* an object, maybe with none of: */
#define RUN_CMD_READ	0x01000
#define RUN_CMD_WRITE	0x02000
#define RUN_CMD_CPU	0x04000
#define RUN_START	0x08000	/* a recorded run: start or end given */
#define RUN_END		0x10000
#define RUN_OFFSET	0x20000

/* What a client says of its run; a figure counts when its bit is given. */
struct run_figures {
	unsigned	 given;
	char		 label[RUN_TEXT_MAX + 1];
	char		 client[RUN_TEXT_MAX + 1];
	char		 protocol[8];	/* smb1 ... other */
	char		 op[8];		/* read write mixed list */
	uint64_t	 bytes, ops, files, block_size;
	double		 client_seconds;
	/* The wrapped command's own counts as it ended (nasperf run). */
	uint64_t	 cmd_read, cmd_write;
	double		 cmd_cpu;
	int		 pid;		/* only as a live run opens */
	/* A recorded run's window on the client's clock (NAN: not a number). */
	double		 start, end;
	double		 clock_offset;	/* client minus server */
};

/* A run. */
struct run_rec {
	unsigned long	 id;
	int		 noticed;	/* origin "auto": a transfer */
	char		 client_addr[RUN_ADDR_MAX];	/* "" unknown */
	struct run_figures f;	/* its figures (start, end, offset unused) */
	double		 start, end;	/* server clock; end 0 while open */
	int		 ended;
	int		 retroactive;	/* recorded after the fact */
	int		 has_offset;
	double		 clock_offset;
	unsigned long	 joined;	/* a transfer: the client run it was */
	unsigned long	 transfers[RUN_TRANSFERS_MAX];	/* a run's, joined */
	size_t		 ntransfers;
};

/* What a run's report decided, kept beside the report itself. */
struct run_judged {
	int			 judged;	/* a report was made */
	struct verdict_outcome	 o;
	int			 session;	/* its SMB session was known */
	int			 crypted;	/* signed or sealed throughout */
	char			 dialect[32];	/* the session's, "" unknown */
};

/*
 * The figures of a request body (an object): 0, or -1 with msg when a key
 * is unknown or a figure wrong.  What depends on the run (a pid from a
 * client elsewhere, a command without a pid) is run_admit's.
 */
int	run_parse(const json_t *body, struct run_figures *f, char *msg,
	    size_t msgsz);
/*
 * Whether figures f may go into run r: opening (r new, peer its client's
 * address) or ending it; 0, or -1 with msg.
 */
int	run_admit(const struct run_rec *r, const struct run_figures *f,
	    int opening, const char *peer, char *msg, size_t msgsz);
/* Copy the figures f gives over r's (an interruption is never undone). */
void	run_apply(struct run_rec *r, const struct run_figures *f);
/*
 * Place a recorded run (f gives start and end on the client's clock) on
 * the server's clock, now being the server's time: 0, or -1 with msg.
 */
int	run_place(struct run_rec *r, const struct run_figures *f, double now,
	    char *msg, size_t msgsz);
/*
 * A transfer noticed on its own was taken for SMB 3 from its port: its
 * session's dialect says which SMB it was ("SMB2_10" smb2, "NT1" smb1).
 */
void	run_set_dialect(struct run_rec *r, const char *dialect);
/*
 * Whether a has moved data of vr's size class: requests within a factor
 * of two, and totals within a factor of four, where both say.
 */
int	run_same_size(const struct run_rec *a, const struct verdict_run *vr);

/* The wrapped command's counts as saved and sent; NULL on ENOMEM. */
json_t	*run_command_json(const struct run_figures *f);
/* The run as saved and sent: {"id", "client_addr", ...}; NULL on ENOMEM. */
json_t	*run_json(const struct run_rec *r);
/* A saved run object read back into r: 0, or -1 when o is not one. */
int	run_load(const json_t *o, struct run_rec *r);
/* What a saved report decided. */
void	run_judged_load(const json_t *report, struct run_judged *j);
/* The verdict engine's view of r; its strings point into r. */
void	run_view(const struct run_rec *r, struct verdict_run *vr,
	    char *idbuf, size_t idsz);

#endif /* RUN_H */
