#include "cli/complete.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/plan.h"
#include "cli/cli.h"
#include "cli/help.h"
#include "core/gpu.h"
#include "core/model.h"

static void list_strategies(void)
{
	for (int s = 0; s < PLAN_NSTRATEGY; s++)
		puts(plan_strategy_name(s));
}

static void list_precisions(void)
{
	static const enum dtype accepted[] = { DT_BF16, DT_FP16, DT_FP32 };	/* plan_set's */

	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++)
		puts(dtype_name(accepted[i]));
}

static void list_optimizers(void)
{
	for (const struct plan_optimizer_alias *a = plan_optimizer_aliases; a->name; a++)
		puts(a->name);
}

static void list_yes_no(void)
{
	puts("yes");
	puts("no");
}

static void list_checkpointing(void)
{
	for (enum plan_checkpointing c = PLAN_CKPT_NONE; c <= PLAN_CKPT_FULL; c++)
		puts(plan_checkpointing_name(c));
}

static void list_attention(void)
{
	for (enum plan_attention a = PLAN_ATTN_EAGER; a <= PLAN_ATTN_FLASH; a++)
		puts(plan_attention_name(a));
}

static void list_hypotheses(void)
{
	for (enum hypothesis h = HYP_STEP_TIME; h <= HYP_FEASIBILITY; h++)
		puts(hypothesis_name(h));
}

static void list_questions(void)
{
	for (enum question q = Q_SINGLE_CONFIG; q <= Q_HPARAM_SWEEP; q++)
		puts(question_name(q));
}

static void list_models(void)
{
	size_t n;
	const struct plan_known_model *m = plan_known_models(&n);

	for (size_t i = 0; i < n; i++)
		puts(m[i].name);
}

static void list_gpus(void)
{
	size_t n;
	const struct gpu_model *g = gpu_models(&n);

	for (size_t i = 0; i < n; i++)
		puts(g[i].name);
}

/* The ISAs of the GPU table, each once, in the table's order. */
static void list_targets(void)
{
	size_t n;
	const struct gpu_model *g = gpu_models(&n);

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && !(g[j].isa && g[i].isa && !strcmp(g[j].isa, g[i].isa)))
			j++;
		if (g[i].isa && j == i)
			puts(g[i].isa);
	}
}

/* The values of the options the code checks against a table, by long name. */
static const struct {
	const char *option;
	void (*list)(void);
} value_lists[] = {
	{ "strategy", list_strategies },	{ "precision", list_precisions },
	{ "optimizer", list_optimizers },	{ "checkpointing", list_checkpointing },
	{ "attention", list_attention },	{ "hypothesis", list_hypotheses },
	{ "question", list_questions },		{ "model", list_models },
	{ "gpu", list_gpus },			{ "target", list_targets },
	{ "bucket-view", list_yes_no },
};

/* Options that name a file or directory, by their value name. */
static const struct {
	const char *value_name, *directive;
} path_values[] = {
	{ "DIR", "@dirs" },
	{ "FILE", "@files *" },
	{ "ANALYSIS.json", "@files *.json" },
};

/* The operands of each synopsis: a trial is a directory, an analysis.json or an archive. */
#define TRIAL_FILES "@files *.json *.tar *.tar.* *.tgz *.zip"

static const struct {
	const char *synopsis, *directive;
} operand_kinds[] = {
	{ "TRIAL", TRIAL_FILES },
	{ "TRIAL|analysis.json", TRIAL_FILES },
	{ "PATH...", "@files *" },
	{ "[PLAN.ini]", "@files *.ini" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void list_options(const struct option *o)
{
	for (; o->kind != OPT_END; o++) {
		const char *how = o->kind == OPT_FLAG ? "flag"
				  : o->flags & OPT_OPTIONAL_VALUE ? "optional" : "value";

		if (o->kind == OPT_INCLUDE) {
			list_options(o->include);
			continue;
		}
		if (o->short_name)
			printf("-%c\t%s\n", o->short_name, how);
		if (o->long_name)
			printf("--%s\t%s\n", o->long_name, how);
	}
}

/* Whether word ("-o", "--target") spells o. */
static bool spells(const char *word, const struct option *o)
{
	if (word[0] != '-')
		return false;
	if (word[1] == '-')
		return o->long_name && !strcmp(word + 2, o->long_name);
	return o->short_name && word[1] == o->short_name && !word[2];
}

/* The option spelled word, here or in an included table. */
static const struct option *find_spelled(const struct option *o, const char *word)
{
	for (; o->kind != OPT_END; o++) {
		if (o->kind == OPT_INCLUDE) {
			const struct option *in = find_spelled(o->include, word);

			if (in)
				return in;
		} else if (spells(word, o)) {
			return o;
		}
	}
	return NULL;
}

static void list_values(const struct option *o)
{
	if (o->kind == OPT_ENUM) {
		for (size_t i = 0; o->choices[i]; i++)
			puts(o->choices[i]);
		return;
	}
	for (size_t i = 0; o->long_name && i < COUNT(value_lists); i++)
		if (!strcmp(value_lists[i].option, o->long_name))
			value_lists[i].list();
	for (size_t i = 0; o->value_name && i < COUNT(path_values); i++)
		if (!strcmp(path_values[i].value_name, o->value_name))
			puts(path_values[i].directive);
}

static void list_operands(const struct command *c)
{
	for (size_t i = 0; i < COUNT(operand_kinds); i++)
		if (!strcmp(operand_kinds[i].synopsis, c->synopsis))
			puts(operand_kinds[i].directive);
}

int cmd_complete(const struct command *commands, size_t n, int argc, char **argv)
{
	const struct command *c;
	const struct option *o;

	if (argc == 0) {
		for (size_t i = 0; i < n; i++)
			puts(commands[i].name);
		puts("help");
		return EXIT_DONE;
	}
	if (argc > 2)
		return usage_error(NULL, "--complete takes a command and a word at most");
	if (argc == 1 && !strcmp(argv[0], "help")) {
		/* What `scaleaudit help` takes: a command or a topic. */
		for (size_t i = 0; i < n; i++)
			puts(commands[i].name);
		for (size_t i = 0; help_topic_name(i); i++)
			puts(help_topic_name(i));
		return EXIT_DONE;
	}
	c = command_find(argv[0]);
	if (!c)
		return usage_error(NULL, "'%s' is not a command", argv[0]);
	if (argc == 1) {
		list_options(c->options);
		return EXIT_DONE;
	}
	if (!*argv[1]) {
		list_operands(c);
		return EXIT_DONE;
	}
	o = find_spelled(c->options, argv[1]);
	if (!o)
		return usage_error(c->name, "unknown option '%s'", argv[1]);
	list_values(o);
	return EXIT_DONE;
}
