/*
 * report_yaml.c: a JSON tree as YAML, through libyaml's emitter.
 *
 * libyaml writes a scalar plain whenever its syntax allows it and knows
 * nothing of types, so the plain string "true" would come back a boolean
 * and "1.5" a number; report_yaml_quote() decides which strings must be
 * quoted.  It answers for both YAML 1.1 (yes, on, 0x10, 1:20, 1_000) and
 * 1.2 readers, and errs on the side of quoting.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <yaml.h>

#include "report_yaml.h"

static int	report_yaml_node(yaml_emitter_t *, const json_t *);

/* Words a YAML 1.1 or 1.2 reader resolves to null or a boolean. */
static const char *report_yaml_words[] = {
	"null", "true", "false", "yes", "no", "on", "off", "y", "n", "~",
	"=", "<<"
};

/* 1 if the plain scalar s of len bytes would not read back as a string. */
static int
report_yaml_quote(const char *s, size_t len)
{
	size_t	i;

	if (len == 0)
		return (1);		/* plain and empty is null */
	/* Numbers, .inf and .nan, dates, sexagesimals: all start so. */
	if (strchr("0123456789+-.", s[0]) != NULL)
		return (1);
	for (i = 0; i < sizeof report_yaml_words / sizeof *report_yaml_words;
	    i++) {
		if (strlen(report_yaml_words[i]) == len &&
		    strncasecmp(s, report_yaml_words[i], len) == 0)
			return (1);
	}
	return (0);
}

/* Emit ev; on failure set errno from the emitter's error.  1 or 0. */
static int
report_yaml_emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	/* The emitter owns the event from here, whatever it returns. */
	if (yaml_emitter_emit(e, ev))
		return (1);
	switch (e->error) {
	case YAML_MEMORY_ERROR:
		errno = ENOMEM;
		break;
	case YAML_WRITER_ERROR:
		if (errno == 0)
			errno = EIO;
		break;
	default:
		errno = EINVAL;
		break;
	}
	return (0);
}

/*
 * Emit one scalar; plain says whether it may be written without quotes.
 * Lines go in a literal block (|) where libyaml can keep them exactly.
 */
static int
report_yaml_scalar(yaml_emitter_t *e, const char *s, size_t len, int plain)
{
	yaml_event_t		ev;
	yaml_scalar_style_t	style = YAML_ANY_SCALAR_STYLE;

	if (!plain)
		style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	else if (memchr(s, '\n', len) != NULL)
		style = YAML_LITERAL_SCALAR_STYLE;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)len, plain, 1, style)) {
		errno = ENOMEM;
		return (0);
	}
	return (report_yaml_emit(e, &ev));
}

/*
 * Format a double with the fewest significant digits (15 to 17) that read
 * back as the same value, and always as a real: "604925459.0", "1.0e+20".
 */
static void
report_yaml_real(char *buf, size_t size, double v)
{
	char	tmp[32], *e;
	int	prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(tmp, sizeof tmp, "%.17g", v);
	if (strchr(tmp, '.') != NULL)
		snprintf(buf, size, "%s", tmp);
	else if ((e = strchr(tmp, 'e')) != NULL)
		snprintf(buf, size, "%.*s.0%s", (int)(e - tmp), tmp, e);
	else
		snprintf(buf, size, "%s.0", tmp);
}

/* 1 if the array a holds only numbers and nulls (and is not empty). */
static int
report_yaml_flat(const json_t *a)
{
	size_t	 i;
	json_t	*v;

	if (json_array_size(a) == 0)
		return (0);
	json_array_foreach(a, i, v) {
		if (!json_is_number(v) && !json_is_null(v))
			return (0);
	}
	return (1);
}

/* Emit a sequence: flow style for numbers, block style otherwise. */
static int
report_yaml_seq(yaml_emitter_t *e, const json_t *a)
{
	yaml_event_t	 ev;
	size_t		 i;
	json_t		*v;

	if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    report_yaml_flat(a) ? YAML_FLOW_SEQUENCE_STYLE :
	    YAML_BLOCK_SEQUENCE_STYLE)) {
		errno = ENOMEM;
		return (0);
	}
	if (!report_yaml_emit(e, &ev))
		return (0);
	json_array_foreach(a, i, v) {
		if (!report_yaml_node(e, v))
			return (0);
	}
	if (!yaml_sequence_end_event_initialize(&ev)) {
		errno = ENOMEM;
		return (0);
	}
	return (report_yaml_emit(e, &ev));
}

/* Emit a mapping in block style, keys in the object's order. */
static int
report_yaml_map(yaml_emitter_t *e, const json_t *o)
{
	yaml_event_t	 ev;
	const char	*k;
	json_t		*v;

	if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    YAML_BLOCK_MAPPING_STYLE)) {
		errno = ENOMEM;
		return (0);
	}
	if (!report_yaml_emit(e, &ev))
		return (0);
	/* json_object_foreach() wants a non-const object; it only reads. */
	json_object_foreach((json_t *)(uintptr_t)o, k, v) {
		if (!report_yaml_scalar(e, k, strlen(k),
		    !report_yaml_quote(k, strlen(k))) ||
		    !report_yaml_node(e, v))
			return (0);
	}
	if (!yaml_mapping_end_event_initialize(&ev)) {
		errno = ENOMEM;
		return (0);
	}
	return (report_yaml_emit(e, &ev));
}

/* Emit any JSON value.  1, or 0 with errno. */
static int
report_yaml_node(yaml_emitter_t *e, const json_t *j)
{
	char		 buf[64];
	const char	*s;
	size_t		 len;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return (report_yaml_map(e, j));
	case JSON_ARRAY:
		return (report_yaml_seq(e, j));
	case JSON_STRING:
		s = json_string_value(j);
		len = json_string_length(j);
		return (report_yaml_scalar(e, s, len,
		    !report_yaml_quote(s, len)));
	case JSON_INTEGER:
		snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(j));
		break;
	case JSON_REAL:
		report_yaml_real(buf, sizeof buf, json_real_value(j));
		break;
	case JSON_TRUE:
		snprintf(buf, sizeof buf, "true");
		break;
	case JSON_FALSE:
		snprintf(buf, sizeof buf, "false");
		break;
	default:
		snprintf(buf, sizeof buf, "null");
		break;
	}
	return (report_yaml_scalar(e, buf, strlen(buf), 1));
}

int
report_yaml_write(const json_t *report, FILE *out)
{
	yaml_emitter_t	e;
	yaml_event_t	ev;
	int		ok;

	if (report == NULL || out == NULL) {
		errno = EINVAL;
		return (-1);
	}
	if (!yaml_emitter_initialize(&e)) {
		errno = ENOMEM;
		return (-1);
	}
	yaml_emitter_set_output_file(&e, out);
	yaml_emitter_set_unicode(&e, 1);
	errno = 0;
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	    report_yaml_emit(&e, &ev) &&
	    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	    report_yaml_emit(&e, &ev) &&
	    report_yaml_node(&e, report) &&
	    yaml_document_end_event_initialize(&ev, 1) &&
	    report_yaml_emit(&e, &ev) &&
	    yaml_stream_end_event_initialize(&ev) &&
	    report_yaml_emit(&e, &ev) &&
	    yaml_emitter_flush(&e);
	if (ok && fflush(out) != 0)
		ok = 0;
	if (!ok && errno == 0)
		errno = e.error == YAML_WRITER_ERROR ? EIO : ENOMEM;
	yaml_emitter_delete(&e);
	return (ok ? 0 : -1);
}
