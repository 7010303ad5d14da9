#!/usr/bin/perl
# codes_check.pl TABLE.c FILE.c...: checks the codes that the C sources raise
# against the table of core/codes.c. Prints one line per problem; exit 1 if any.
#
# A code is raised by calling a function that takes a `const char *code`
# parameter (diag_add, diag_error, diag_warn, analysis_finding and every
# wrapper of them, found by that parameter). Each call must pass a string
# literal, or forward its own `code` parameter, or the code of a recorded
# diagnostic (`...items[i].code`). The severity of a call is its
# `enum diag_severity` argument (DIAG_ERROR, ...), or the one its function
# always passes on. Checked: every literal is in the table; every table entry
# is raised somewhere; the severities a code is raised with are those of its
# table entry (where a call's severity is only known at run time, the known
# ones must be among the table's).
use strict;
use warnings;

my ($table_file, @files) = @ARGV;
my @problems;

sub slurp {
	my ($f) = @_;
	open my $h, '<', $f or die "$f: $!\n";
	local $/;
	my $t = <$h>;
	# comments out, strings kept, newlines kept so that line numbers hold
	$t =~ s{("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|(/\*.*?\*/|//[^\n]*)}
	       {defined $1 ? $1 : "\n" x ($2 =~ tr/\n//)}gse;
	return $t;
}

# the table: { "code", E | W, CODE_LAYER, ...
my %table;
my $tt = slurp($table_file);
while ($tt =~ /\{\s*"([^"]*)",\s*([EWI](?:\s*\|\s*[EWI])*),\s*CODE_\w+,/g) {
	my ($code, $sev) = ($1, $2);
	my %s = (E => 'error', W => 'warning', I => 'info');
	push @problems, "$table_file: '$code' is in the table twice" if $table{$code};
	$table{$code} = { map { $s{$_} => 1 } ($sev =~ /[EWI]/g) };
}
push @problems, "$table_file: no table entry found" unless %table;

# The arguments of the call whose '(' is at $pos: top-level comma-separated texts.
sub call_args {
	my ($t, $pos) = @_;
	my ($depth, $cur, @args) = (0, '');
	pos($t) = $pos + 1;
	while ($t =~ /\G("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[(\[{]|[)\]}]|,|[^"'(\[{)\]},]+)/gc) {
		my $tok = $1;
		if ($tok =~ /^[(\[{]$/) { $depth++ }
		elsif ($tok =~ /^[)\]}]$/) {
			if ($depth-- == 0) { push @args, $cur; last }
		} elsif ($tok eq ',' && $depth == 0) { push @args, $cur; $cur = ''; next }
		$cur .= $tok;
	}
	s/^\s+|\s+$//g for @args;
	return (\@args, pos($t));
}

sub lineno { my ($t, $pos) = @_; return 1 + (substr($t, 0, $pos) =~ tr/\n//) }

# functions that take a code: name -> { code => index, sev => index | undef, fixed => sev }
my (%fn, %src);
for my $f (@files) {
	my $t = $src{$f} = slurp($f);
	while ($t =~ /^[A-Za-z_][\w \t*]*?\b(\w+)\s*(\([^()]*\))\s*\{/mg) {
		my ($name, $params, $end) = ($1, $2, pos($t));
		my @p = split /,/, substr($params, 1, -1);
		my ($ci) = grep { $p[$_] =~ /^\s*const\s+char\s*\*\s*code\s*$/ } 0 .. $#p;
		next unless defined $ci;
		my ($si) = grep { $p[$_] =~ /^\s*enum\s+diag_severity\s+\w+\s*$/ } 0 .. $#p;
		$fn{$name} = { code => $ci, sev => $si, file => $f, body => $end };
	}
}

# The severity a call passes: its DIAG_* argument, or what its function always passes.
sub call_sev {
	my ($g, $args) = @_;
	return $g->{fixed} unless defined $g->{sev};
	return ($args->[$g->{sev}] // '') =~ /^DIAG_(ERROR|WARNING|INFO)$/ ? lc $1 : undef;
}

# All calls of code-taking functions: [file, line, callee, args, offset].
sub calls {
	my @out;
	my $re = join '|', map { quotemeta } sort keys %fn;
	for my $f (@files) {
		my $t = $src{$f};
		while ($t =~ /\b($re)\s*\(/g) {
			my ($name, $open) = ($1, pos($t) - 1);
			my ($args) = call_args($t, $open);
			pos($t) = $open + 1;
			my $ca = $args->[$fn{$name}{code}] // '';
			next if $ca =~ /^const\s+char\b/;	# its definition or prototype
			push @out, [$f, lineno($t, $open), $name, $args, $open];
		}
	}
	return @out;
}
my @calls = %fn ? calls() : ();

# A wrapper without a severity parameter passes on the one of the call that forwards `code`.
for my $round (1 .. 5) {
	for my $c (@calls) {
		my ($f, $line, $name, $args, $off) = @$c;
		next unless ($args->[$fn{$name}{code}] // '') eq 'code';
		my ($owner) = sort { $fn{$b}{body} <=> $fn{$a}{body} }
			grep { $fn{$_}{file} eq $f && $fn{$_}{body} < $off } keys %fn;
		next unless $owner && !defined $fn{$owner}{sev} && !defined $fn{$owner}{fixed};
		my $s = call_sev($fn{$name}, $args);
		$fn{$owner}{fixed} = $s if defined $s;
	}
}

my (%seen, %dynamic);
for my $c (@calls) {
	my ($f, $line, $name, $args) = @$c;
	my $ca = $args->[$fn{$name}{code}] // '';
	next if $ca eq 'code' || $ca =~ /items\[[^\]]*\]\.code$/;
	if ($ca !~ /^"([^"\\]*)"$/) {
		push @problems, "$f:$line: $name() gets code '$ca': pass a string literal";
		next;
	}
	my $code = $1;
	my $sev = call_sev($fn{$name}, $args);
	if (!$table{$code}) {
		push @problems, "$f:$line: code '$code' is not in $table_file";
		next;
	}
	if (!defined $sev) { $dynamic{$code} = 1; $seen{$code} ||= {}; next }
	$seen{$code}{$sev} = 1;
	push @problems, "$f:$line: code '$code' is raised as $sev, but $table_file says "
		. join(', ', sort keys %{$table{$code}}) unless $table{$code}{$sev};
}
for my $code (sort keys %table) {
	if (!$seen{$code}) {
		push @problems, "$table_file: code '$code' is raised nowhere: remove its entry";
		next;
	}
	next if $dynamic{$code};
	for my $s (sort keys %{$table{$code}}) {
		push @problems, "$table_file: code '$code' is never raised as $s: correct its severity"
			unless $seen{$code}{$s};
	}
}
print "$_\n" for @problems;
printf "%d codes in the table, %d calls checked\n", scalar(keys %table), scalar(@calls);
exit(@problems ? 1 : 0);
