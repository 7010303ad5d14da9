/*
 * complete: what the shell completion scripts (completion/) ask the binary,
 * answered from the command and option tables and from the tables of values
 * the code accepts (strategies, GPU models, targets...), so that completion
 * cannot drift from the tool. Not shown in the help: it is for scripts.
 */
#ifndef CLI_COMPLETE_H
#define CLI_COMPLETE_H

#include <stddef.h>

struct command;

/*
 * scaleaudit --complete [COMMAND [WORD]], argv being the words after
 * --complete; prints on stdout, one item a line:
 *   (nothing)       the commands, then "help";
 *   COMMAND         each spelling of each option of COMMAND, a tab, and how it
 *                   takes a value: "flag" (none), "value" (the next word or
 *                   after '='), "optional" (only after '=');
 *   COMMAND OPTION  the values OPTION (a spelling: "--strategy", "-o") takes;
 *   COMMAND ""      what the operands are.
 * A value line is a value as the option accepts it, or a directive for the
 * shell: "@dirs" (directories) or "@files GLOB..." (directories, and files
 * matching one of the space-separated shell patterns). Nothing is printed for an option whose
 * values are free (numbers, text). Returns EXIT_DONE, or EXIT_USAGE (with the
 * usual message) for an unknown command or option or too many words.
 */
int cmd_complete(const struct command *commands, size_t n, int argc, char **argv);

#endif
