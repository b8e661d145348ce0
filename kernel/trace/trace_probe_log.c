// SPDX-License-Identifier: GPL-2.0
/*
 * The error log of probe-event definitions: where in the command a
 * definition went wrong, and why, for tracefs' error_log.
 *
 * The parser (trace_probe_parse.c), the event core (trace_probe.c) and
 * the front ends report here, and this file calls none of them: it knows
 * only the words of the command being parsed and the error texts.
 *
 * The one lookup the parser makes in the kernel's tables, an event's
 * field by name, is here too, so that the parser calls nothing above it.
 */
#define pr_fmt(fmt)	"trace_probe: " fmt

#include <linux/slab.h>
#include <linux/string.h>

#include "trace_dynevent.h"
#include "trace_probe.h"

static const char *const probe_error_text[TP_ERR_NR] = {
	[TP_ERR_FILE_NOT_FOUND]	= "Failed to find the given file",
	[TP_ERR_NO_REGULAR_FILE] = "Not a regular file",
	[TP_ERR_BAD_REFCNT]	= "Invalid reference counter offset",
	[TP_ERR_REFCNT_OPEN_BRACE] = "Reference counter brace is not closed",
	[TP_ERR_BAD_REFCNT_SUFFIX] = "Reference counter has wrong suffix",
	[TP_ERR_BAD_UPROBE_OFFS] = "Invalid uprobe offset",
	[TP_ERR_BAD_MAXACT_TYPE] = "Maxactive is only for function exit",
	[TP_ERR_BAD_MAXACT]	= "Invalid maxactive number",
	[TP_ERR_MAXACT_TOO_BIG]	= "Maxactive is too big",
	[TP_ERR_BAD_PROBE_ADDR]	= "Invalid probed address or symbol",
	[TP_ERR_NON_UNIQ_SYMBOL] = "The symbol is not unique",
	[TP_ERR_BAD_RETPROBE]	= "Retprobe address must be an function entry",
	[TP_ERR_NO_TRACEPOINT]	= "Tracepoint is not found",
	[TP_ERR_BAD_TP_NAME]	= "Invalid character in tracepoint name",
	[TP_ERR_BAD_ADDR_SUFFIX] = "Invalid probed address suffix",
	[TP_ERR_NO_GROUP_NAME]	= "Group name is not specified",
	[TP_ERR_GROUP_TOO_LONG]	= "Group name is too long",
	[TP_ERR_BAD_GROUP_NAME]	= "Group name must follow the same rules as C identifiers",
	[TP_ERR_NO_EVENT_NAME]	= "Event name is not specified",
	[TP_ERR_EVENT_TOO_LONG]	= "Event name is too long",
	[TP_ERR_BAD_EVENT_NAME]	= "Event name must follow the same rules as C identifiers",
	[TP_ERR_EVENT_EXIST]	= "Given group/event name is already used by another event",
	[TP_ERR_RETVAL_ON_PROBE] = "$retval is not available on probe",
	[TP_ERR_NO_RETVAL]	= "This function returns 'void' type",
	[TP_ERR_BAD_STACK_NUM]	= "Invalid stack number",
	[TP_ERR_BAD_ARG_NUM]	= "Invalid argument number",
	[TP_ERR_BAD_VAR]	= "Invalid $-variable specified",
	[TP_ERR_BAD_REG_NAME]	= "Invalid register name",
	[TP_ERR_BAD_MEM_ADDR]	= "Invalid memory address",
	[TP_ERR_BAD_IMM]	= "Invalid immediate value",
	[TP_ERR_IMMSTR_NO_CLOSE] = "String is not closed with '\"'",
	[TP_ERR_FILE_ON_KPROBE]	= "File offset is not available for kernel probes",
	[TP_ERR_BAD_FILE_OFFS]	= "Invalid file offset value",
	[TP_ERR_SYM_ON_UPROBE]	= "Symbol is not available with uprobe",
	[TP_ERR_TOO_MANY_OPS]	= "Dereference is too much nested",
	[TP_ERR_DEREF_NEED_BRACE] = "Dereference needs a brace",
	[TP_ERR_BAD_DEREF_OFFS]	= "Invalid dereference offset",
	[TP_ERR_DEREF_OPEN_BRACE] = "Dereference brace is not closed",
	[TP_ERR_COMM_CANT_DEREF] = "$comm can not be dereferenced",
	[TP_ERR_BAD_FETCH_ARG]	= "Invalid fetch argument",
	[TP_ERR_ARRAY_NO_CLOSE]	= "Array is not closed",
	[TP_ERR_BAD_ARRAY_SUFFIX] = "Array has wrong suffix",
	[TP_ERR_BAD_ARRAY_NUM]	= "Invalid array size",
	[TP_ERR_ARRAY_TOO_BIG]	= "Array number is too big",
	[TP_ERR_BAD_TYPE]	= "Unknown type is specified",
	[TP_ERR_BAD_STRING]	= "String accepts only memory argument",
	[TP_ERR_BAD_SYMSTRING]	= "Symbol String doesn't accept data/userdata",
	[TP_ERR_BAD_BITFIELD]	= "Invalid bitfield",
	[TP_ERR_ARG_NAME_TOO_LONG] = "Argument name is too long",
	[TP_ERR_NO_ARG_NAME]	= "Argument name is not specified",
	[TP_ERR_BAD_ARG_NAME]	= "Argument name must follow the same rules as C identifiers",
	[TP_ERR_USED_ARG_NAME]	= "This argument name is already used",
	[TP_ERR_ARG_TOO_LONG]	= "Argument expression is too long",
	[TP_ERR_NO_ARG_BODY]	= "No argument expression",
	[TP_ERR_BAD_INSN_BNDRY]	= "Probe point is not an instruction boundary",
	[TP_ERR_FAIL_REG_PROBE]	= "Failed to register probe event",
	[TP_ERR_DIFF_PROBE_TYPE] = "Probe type is different from existing probe",
	[TP_ERR_DIFF_ARG_TYPE]	= "Argument type or name is different from existing probe",
	[TP_ERR_SAME_PROBE]	= "There is already the exact same probe event",
	[TP_ERR_NO_EVENT_INFO]	= "This requires both group and event name to attach",
	[TP_ERR_BAD_ATTACH_EVENT] = "Attached event does not exist",
	[TP_ERR_BAD_ATTACH_ARG]	= "Attached event does not have this field",
	[TP_ERR_NO_EP_FILTER]	= "No filter rule after 'if'",
	[TP_ERR_NOSUP_BTFARG]	= "BTF is not available or not supported",
	[TP_ERR_NO_BTFARG]	= "This variable is not found at this probe point",
	[TP_ERR_NO_BTF_ENTRY]	= "No BTF entry for this probe point",
	[TP_ERR_BAD_VAR_ARGS]	= "$arg* must be an independent parameter without name etc.",
	[TP_ERR_NOFENTRY_ARGS]	= "$arg* can be used only on function entry or exit",
	[TP_ERR_DOUBLE_ARGS]	= "$arg* can be used only once in the parameters",
	[TP_ERR_ARGS_2LONG]	= "$arg* failed because the argument list is too long",
	[TP_ERR_ARGIDX_2BIG]	= "$argN index is too big",
	[TP_ERR_NO_PTR_STRCT]	= "This is not a pointer to union/structure.",
	[TP_ERR_NOSUP_DAT_ARG]	= "Non pointer structure/union argument is not supported.",
	[TP_ERR_BAD_HYPHEN]	= "Failed to parse single hyphen. Forgot '>'?",
	[TP_ERR_NO_BTF_FIELD]	= "This field is not found.",
	[TP_ERR_BAD_BTF_TID]	= "Failed to get BTF type info.",
	[TP_ERR_BAD_TYPE4STR]	= "This type does not fit for string.",
	[TP_ERR_NEED_STRING_TYPE] = "$comm and immediate-string only accepts string type",
	[TP_ERR_EVENT_TOO_BIG]	= "Event too big (too many fields?)",
	[TP_ERR_TOO_MANY_EARGS]	= "Too many entry arguments specified",
	[TP_ERR_TOO_MANY_NESTED] = "Too many nested typecasts/dereferences",
	[TP_ERR_TOO_MANY_ARGS]	= "Too many arguments are specified",
	[TP_ERR_NOSUP_PERCPU]	= "Per-cpu variable access is only for kernel probes",
	[TP_ERR_NO_EVENT_FIELD]	= "This event field is not found.",
	[TP_ERR_TYPECAST_BAD_ARROW] = "Typecast field option does not support -> operator",
	[TP_ERR_TYPECAST_NOT_ALIGNED] = "Typecast field option is not byte-aligned",
	[TP_ERR_TYPECAST_REQ_FIELD] = "Typecast requires a field access",
	[TP_ERR_TYPECAST_SYM_OFFSET] = "@SYM+/-OFFSET with typecast needs parentheses",
	[TP_ERR_BAD_ACCESS_FMT]	= "Access memory address requires @",
	[TP_ERR_BAD_ACCESS_TYPE] = "Bad memory access type",
	[TP_ERR_BAD_ACCESS_LEN]	= "This memory access length is not supported",
	[TP_ERR_BAD_ACCESS_ADDR] = "Invalid access memory address",
	[TP_ERR_NO_WATCH_SLOT]	= "No hardware watchpoint is left for the event",
};

/* ---- The error log ---------------------------------------------------- */

/*
 * The command being parsed, as the argv words it was split into.  Parsing
 * is serialized by dyn_event_ops_mutex, which every writer of a probe
 * event file holds, so one static log is enough.
 */
static struct {
	const char	*subsystem;
	const char	**argv;
	int		argc;
	int		index;
} probe_log;

#if IS_ENABLED(CONFIG_PROBE_EVENTS_KUNIT_TEST)
struct trace_probe_error trace_probe_last_error;

/**
 * trace_probe_error_text - the text of an error code, for the parser's tests
 * @err: a TP_ERR_* code
 *
 * Return: the text error_log shows for @err, or NULL if it has none.
 */
const char *trace_probe_error_text(int err)
{
	return err >= 0 && err < TP_ERR_NR ? probe_error_text[err] : NULL;
}
#endif

/**
 * trace_probe_log_init - start logging errors for a command
 * @subsystem: the error_log location ("trace_kprobe", ...)
 * @argc: words of the command
 * @argv: the words
 */
void trace_probe_log_init(const char *subsystem, int argc, const char **argv)
{
	lockdep_assert_held(&dyn_event_ops_mutex);
	probe_log.subsystem = subsystem;
	probe_log.argc = argc;
	probe_log.argv = argv;
	probe_log.index = 0;
}

/**
 * trace_probe_log_clear - stop logging errors for the current command
 */
void trace_probe_log_clear(void)
{
	lockdep_assert_held(&dyn_event_ops_mutex);
	probe_log.subsystem = NULL;
	probe_log.argv = NULL;
	probe_log.argc = 0;
	probe_log.index = 0;
}

/**
 * trace_probe_log_set_index - say which word later errors are in
 * @index: the word, from 0; argc or more means "after the last word"
 */
void trace_probe_log_set_index(int index)
{
	lockdep_assert_held(&dyn_event_ops_mutex);
	probe_log.index = index;
}

/**
 * trace_probe_join_words - the words of a command, as one string
 * @argc: words
 * @argv: the words
 *
 * Return: them joined by single spaces, to kfree(), or NULL.
 */
char *trace_probe_join_words(int argc, const char **argv)
{
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = kmalloc(len, GFP_KERNEL);
	if (!s)
		return NULL;
	*s = '\0';
	for (i = 0, p = s; i < argc; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	return s;
}

/**
 * __trace_probe_log_err - log an error of the current command
 * @offset: byte offset of the bad token in the current word
 * @err: a TP_ERR_* code
 */
void __trace_probe_log_err(int offset, int err)
{
	int i, len = 0, pos = 0;
	char *cmd;

	lockdep_assert_held(&dyn_event_ops_mutex);
	if (!probe_log.argv || !probe_log.argc || err < 0 || err >= TP_ERR_NR)
		return;

	for (i = 0; i < probe_log.argc; i++) {
		if (i == probe_log.index)
			pos = len + offset;
		len += strlen(probe_log.argv[i]) + 1;
	}
	/* Past the last word: the caret goes one space after the command. */
	if (probe_log.index >= probe_log.argc)
		pos = len;
#if IS_ENABLED(CONFIG_PROBE_EVENTS_KUNIT_TEST)
	trace_probe_last_error.err = err;
	trace_probe_last_error.pos = pos;
#endif

	cmd = trace_probe_join_words(probe_log.argc, probe_log.argv);
	if (!cmd)
		return;
	tracing_log_err(NULL, probe_log.subsystem, cmd,
			(const char **)probe_error_text, err, pos);
	kfree(cmd);
}

/**
 * probe_event_field - the field an event probe's argument names
 * @event: the event the probe is attached to
 * @name: the field's name
 *
 * Return: the field, or NULL if @event has none of that name.
 */
struct ftrace_event_field *probe_event_field(struct trace_event_call *event,
					     const char *name)
{
	struct ftrace_event_field *field;

	list_for_each_entry(field, trace_get_fields(event), link)
		if (!strcmp(field->name, name))
			return field;
	return NULL;
}
