#!/usr/bin/env python3
# Builds the labelled sample files of this folder from snapshots of other
# projects' published test data (see SOURCES.md). Run by hand when a source
# is refreshed; the gateway's tests and benches read only the .jsonl output.
#
#   python3 extract.py <noseyparker repo> <kingfisher repo> <detect-secrets repo> [<secretlint repo> [<ripsecrets repo> [<whispers repo> [<trivy repo> [<checkov repo>]]]]]
#
# A repository given as `-` is skipped (its .jsonl file is left as it is).
# Each argument is a git directory (a bare clone works); files are read at
# HEAD with `git show`. Output lines:
#   {"source", "rule", "service", "kind": "tp"|"fp", "text", "secrets": [...]}
# `secrets` are the exact substrings the source labels as the credential
# (the capture groups of the source rule's own pattern applied to its own
# example); empty for detect-secrets, whose tests label a whole line only.
import ast, json, subprocess, sys
import regex
import yaml

def git(repo, *args):
    return subprocess.run(['git', '-C', repo, *args], check=True, capture_output=True, text=True).stdout

def files(repo, prefix):
    return [f for f in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', prefix).split('\n') if f.endswith('.yml') or f.endswith('.yaml')]

def compile_rust(pattern):
    # Rust regex and the `regex` module agree on the syntax these patterns use,
    # except the end-of-text anchor.
    return regex.compile(pattern.replace('\\z', '\\Z'))

# A rule with several groups often captures what sits around the secret
# too: the host of a URL, a user name, an account name, a client id. Only the
# secret parts are labelled: a group is left out when it reads as a host,
# URL or e-mail address, or when the name just before it (same line) says it
# is a user, login, account name, host or client/app id. A second secret
# (the secret half of an id/secret pair) stays labelled.
HOSTLIKE = regex.compile(r'^(?:[a-z][a-z0-9+.-]*://)?(?:machine )?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.[A-Za-z]{2,}(?::[0-9]+)?(?:/\S*)?$|^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$|^localhost$|^[0-9.]+$')
NAMED_ID = regex.compile(r'(?i)(?:user(?:name)?|login|uid|account[ _.-]?name|host(?:name)?|server|domain|endpoint|client[ _.-]?id|app[ _.-]?id|-u|--user)["\'\s]*[:=>,\s]\s*["\']?$')

NOT_A_SECRET = regex.compile(r'^(?:[$%#@]|.*\$\{|.*%$)|^[A-Za-z0-9.-]+:[0-9]{2,5}$|^(?i:(?:my)?(?:user(?:name)?|pass(?:word)?|secret|pwd))$')

def label(rx, text):
    spans = []
    for m in rx.finditer(text):
        groups = [g for g in range(1, (rx.groups or 0) + 1) if m.group(g)]
        for g in groups:
            value = m.group(g)
            if len(groups) > 1:
                line_start = text.rfind('\n', 0, m.start(g)) + 1
                before = text[max(line_start, m.start(g) - 40):m.start(g)]
                after = text[m.end(g):m.end(g) + 1]
                if HOSTLIKE.match(value) or NAMED_ID.search(before) or (after == ':' and any(m.start(h) == m.end(g) + 1 for h in groups)):
                    count('labels', 'group left out (host, user, account or client id)')
                    continue
            # Variables and stand-ins are no credential: `$Password`,
            # `%PASS%`, `${DB_PASS}`, `#{...}`, `myPassword`, `host:5432`.
            if NOT_A_SECRET.search(value.strip('"\'\\ \n')):
                count('labels', 'group left out (variable, stand-in or host:port)')
                continue
            spans.append(value)
    return spans

stats = {}
def count(source, key):
    stats.setdefault(source, {}).setdefault(key, 0)
    stats[source][key] += 1

def keep(out, seen, source, duplicate, rule, service, kind, text, secrets):
    # A text already taken from an earlier source (whitespace aside) is left
    # out, so no sample counts twice or on both sides of the split.
    key = ' '.join(text.split())
    if key in seen:
        count(source, duplicate)
        return
    seen.add(key)
    count(source, kind)
    out.append({'source': source, 'rule': rule, 'service': service, 'kind': kind, 'text': text, 'secrets': secrets})

def yaml_rules(repo, prefix, source, seen):
    out = []
    for f in files(repo, prefix):
        doc = yaml.safe_load(git(repo, 'show', f'HEAD:{f}')) or {}
        for r in doc.get('rules', []) or []:
            cats = set(r.get('categories') or [])
            # Identifiers (account names, client ids) and password hashes are
            # not what the gateway removes; neither are rules a source hides.
            if r.get('visible') is False or 'hashed' in cats or ('identifier' in cats and 'secret' not in cats):
                count(source, 'rules skipped (identifier, hash or hidden)')
                continue
            try:
                rx = compile_rust(r['pattern'])
            except Exception:
                count(source, 'rules skipped (pattern not readable here)')
                continue
            stem = r['id'].split('.')[1]
            for kind, key in (('tp', 'examples'), ('fp', 'negative_examples')):
                for text in r.get(key) or []:
                    if not isinstance(text, str):
                        continue
                    norm = ' '.join(text.split())
                    if norm in seen:
                        count(source, f'{kind} skipped (same text in an earlier source)')
                        continue
                    seen.add(norm)
                    secrets = label(rx, text) if kind == 'tp' else []
                    if kind == 'tp' and not rx.search(text):
                        count(source, 'tp skipped (own pattern does not match)')
                        continue
                    if kind == 'tp' and not secrets:
                        count(source, 'tp skipped (no part is a credential: variable, stand-in or host only)')
                        continue
                    count(source, kind)
                    out.append({'source': source, 'rule': r['id'], 'service': stem, 'kind': kind, 'text': text, 'secrets': secrets})
    return out

def literal(node):
    try:
        return ast.literal_eval(node)
    except Exception:
        return None

# detect-secrets plugins whose findings the gateway does not treat as secrets.
DS_SKIP = {'ip_public_test.py', 'base_test.py', 'high_entropy_strings_test.py'}

def detect_secrets(repo):
    out = []
    for f in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', 'tests/plugins').split('\n'):
        name = f.rsplit('/', 1)[-1]
        if not f.endswith('_test.py') or name in DS_SKIP:
            continue
        tree = ast.parse(git(repo, 'show', f'HEAD:{f}'))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, 'attr', '') == 'parametrize' and len(node.args) >= 2):
                continue
            names = literal(node.args[0])
            rows = node.args[1]
            if not isinstance(names, str) or not isinstance(rows, (ast.List, ast.Tuple)):
                continue
            names = [n.strip() for n in names.split(',')]
            if len(names) < 2:
                continue
            for row in rows.elts:
                v = literal(row)
                if not isinstance(v, tuple) or len(v) != len(names):
                    count('detect-secrets', 'rows skipped (not literal)')
                    continue
                text = v[0]
                flag = next((x for x in v[1:] if isinstance(x, bool)), None)
                if not isinstance(text, str) or flag is None:
                    count('detect-secrets', 'rows skipped (no text or no flag)')
                    continue
                kind = 'tp' if flag else 'fp'
                count('detect-secrets', kind)
                out.append({'source': 'detect-secrets', 'rule': name[:-len('_test.py')], 'service': name[:-len('_test.py')], 'kind': kind, 'text': text, 'secrets': []})
    return out

# secretlint rules that report something other than a credential in the
# text: comment directives, file names and home-directory paths, a whole
# Kubernetes Secret manifest, the rule template, and user-configured patterns.
SECRETLINT_SKIP = {'filter-comments', 'no-dotenv', 'no-homedir', 'no-k8s-kind-secret', 'example', 'pattern'}

USERINFO = regex.compile(r'^(?:[a-z][a-z0-9+.-]*://)?[^:/@\s]*:([^@\s]+)@')

def secretlint(repo, seen):
    # Snapshot tests: test/snapshots/<case>/output.json holds the input text
    # (sourceContent) and each report with its range; a case with reports is
    # a positive labelled by those ranges, one without is a negative.
    out = []
    prefix = 'packages/@secretlint/'
    names = [f for f in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', prefix).split('\n') if f.endswith('/output.json') and '/test/snapshots/' in f]
    for path in sorted(names):
        rule = path[len(prefix):].split('/')[0]
        if not rule.startswith('secretlint-rule-'):
            continue
        stem = rule[len('secretlint-rule-'):]
        if stem in SECRETLINT_SKIP:
            count('secretlint', 'skipped rule')
            continue
        report = json.loads(git(repo, 'show', f'HEAD:{path}'))
        text = report.get('sourceContent')
        if not isinstance(text, str) or not text.strip():
            continue
        key = ' '.join(text.split())
        if key in seen:
            count('secretlint', 'duplicate (another source, or a preset test repeating a rule test)')
            continue
        seen.add(key)
        secrets = []
        for m in report.get('messages', []):
            a, b = m['range']
            value = text[a:b]
            # A report that spans a URL or `user:password@host` is labelled by
            # its password only, as the other sources' labels are.
            userinfo = USERINFO.match(value)
            if userinfo:
                count('secretlint', 'label narrowed to the password of user:password@')
                value = userinfo.group(1)
            if value.strip() and value not in secrets:
                secrets.append(value)
        kind = 'tp' if report.get('messages') else 'fp'
        if kind == 'tp' and not secrets:
            continue
        count('secretlint', kind)
        # The service is the reporting rule's name, or its first word
        # (`hashicorp-vault`); a preset's test names the rule in each report.
        reporters = [m.get('ruleId', '').split('secretlint-rule-')[-1] for m in report.get('messages', [])]
        service = (reporters[0] if reporters and reporters[0] else stem).split('-')[0]
        out.append({'source': 'secretlint', 'rule': f"secretlint.{stem}.{path.split('/')[-2]}", 'service': service, 'kind': kind, 'text': text, 'secrets': secrets})
    return out

# ripsecrets keeps its test data as files: every line of test/one_per_line/<kind>
# holds one secret, every file of test/one_per_file is one, and no line of
# test/none holds any. Labels are per line (or per file), like detect-secrets'.
# The service is the file name (`aws_json` is aws, the two key files pem).
def ripsecrets(repo, seen):
    out = []
    names = [f for f in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', 'test').split('\n') if f]
    for path in sorted(names):
        body = git(repo, 'show', f'HEAD:{path}')
        stem = path.split('/')[-1]
        if path.startswith('test/one_per_line/'):
            rows = [('tp', stem, line) for line in body.split('\n') if line.strip()]
        elif path.startswith('test/one_per_file/'):
            rows = [('tp', 'aws' if stem == 'aws_json' else 'pem', body)]
        elif path == 'test/none':
            rows = [('fp', 'none', line) for line in body.split('\n') if line.strip()]
        else:
            continue
        for kind, service, text in rows:
            keep(out, seen, 'ripsecrets', 'duplicate of another source', f'ripsecrets.{path[len("test/"):]}', service, kind, text, [])
    return out

# Whispers (Skyscanner) splits each fixture into a compliant and a
# non-compliant part (a marker line or key naming either); its tests count
# what it must find there, and every value it must find spells `hardcoded`
# (or is the base64 of it, or a number). Each line of a non-compliant part
# holding such a value is a positive labelled by that value; each line of a
# compliant part holding a value is a negative. A line whose own name is
# missing or generic (a list item, `<value>`, `value:`) is sent with the
# lines of its record before it (back to the nearest line indented less, or
# an earlier item of the same list), as a reader of the file would see it.
# Left out: fixtures that test paths, card numbers, comments, CORS, parsing,
# config-driven exclusion and severity, and `.htpasswd` and Jenkins' password
# hash (password hashes).
WHISPERS_SKIP = {'paths.yml', 'creditcards.yml', 'cors.py', 'language.html', 'language.py2', 'custom.json', 'custom.xml',
                 'custom.yml', 'excluded.json', 'excluded.xml', 'excluded.yml', 'severity.yml', 'invalid.json', '.htpasswd',
                 'folder/password/.gitkeep'}
WH_MARK = regex.compile(r'(?i)^(?!.*hardcoded).*\b(?:non-?|in)?compliant\b')
WH_VALUE = regex.compile(r'(?i)[^\s"\'<>=:,(){}@&;\\]*hardcoded[^\s"\'<>=:,(){}@&;\\]*')
WH_GENERIC = regex.compile(r'(?i)^[\s"\'\-]*(?:(?:<|-\s*)?value>?\s*[:=]?\s*)?["\']?$')
WH_OTHER = {
    # values whispers' tests name by key instead of by spelling
    'aws.yml': r'AKIA[A-Z0-9]{16}|PA3X[^\s"<]+|FakeYXdz[^\s"<]+', 'aws.json': r'AKIA[A-Z0-9]{16}|PA3X[^\s"<]+|FakeYXdz[^\s"<]+',
    'aws.xml': r'AKIA[A-Z0-9]{16}|PA3X[^\s"<]+|FakeYXdz[^\s"<]+', 'apikeys.yml': r'\b[0-9]{22}\b', 'apikeys.json': r'\b[0-9]{22}\b',
    'apikeys.xml': r'\b[0-9]{22}\b', 'privatekeys.yml': r'QyNTUxOQ[A-Za-z0-9+/]+', 'privatekeys.json': r'QyNTUxOQ[A-Za-z0-9+/]+',
    'privatekeys.xml': r'QyNTUxOQ[A-Za-z0-9+/]+', 'connection.config': r'(?<=Password=)[^;\s]+',
}

def wh_indent(line):
    m = regex.match(r'^([\s]*)(-\s+)?', line.expandtabs(4))
    return len(m.group(1)), bool(m.group(2))

def wh_record(lines, i, start):
    # back to the line that names this one: a key of the same list item
    # (`- key: password` above `value: …`) or the parent of a bare item
    ind, item = wh_indent(lines[i])
    j = i
    while j > start and lines[j - 1].strip():
        j -= 1
        pi, pitem = wh_indent(lines[j])
        if pi < ind or (pitem and pi == ind and not item):
            break
    return '\n'.join(lines[j:i + 1])

def whispers(repo, seen):
    out = []
    def emit(rule, service, kind, text, secrets):
        keep(out, seen, 'whispers', 'duplicate text', rule, service, kind, text, secrets)
    for path in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD', 'tests/fixtures').split('\n'):
        name = path[len('tests/fixtures/'):]
        if not name or name in WHISPERS_SKIP:
            continue
        lines = git(repo, 'show', f'HEAD:{path}').split('\n')
        rule = f'whispers.{name}'
        service = ('aws' if name.startswith('aws.') or name == '.aws/credentials' else 'github' if name == 'gitkeys.yml'
                   else 'npm' if name == '.npmrc' else 'pypi' if name in ('.pypirc', 'pip.conf') else 'dockerhub' if name.endswith('dockercfg')
                   else 'jenkins' if name == 'jenkins.xml' else 'privatekey' if name.startswith('privatekeys') else 'generic')
        if name.endswith('dockercfg') or name == 'jenkins.xml' or name.startswith('cloudformation'):
            # compliant and non-compliant entries are told apart by a key of
            # their record, not by a marker line: one sample per record
            if name.startswith('cloudformation'):
                blocks = regex.split(r'\n(?=\s*"?(?:Non)?[Cc]ompliantDB)', '\n'.join(lines))[1:]
                for b in blocks:
                    b = b.rstrip().rstrip(',')
                    if 'Noncompliant' in b:
                        emit(rule, 'generic', 'tp', b, [regex.search(r'Default"?:\s*"?(\w+)', b).group(1)])
                    elif regex.search(r'Default', b):
                        emit(rule, 'generic', 'fp', b, [])
            elif name == 'jenkins.xml':
                for l in lines:
                    if 'ApiToken>' in l:
                        v = regex.search(r'>\{?([^<{}]+)\}?<', l).group(1)
                        emit(rule, service, 'tp' if 'noncompliant' in l else 'fp', l.strip(), [v] if 'noncompliant' in l else [])
            else:
                for b in regex.findall(r'"https://[^"]+": \{[^}]*\}', '\n'.join(lines)):
                    m = regex.search(r'"auth": "([^"]*)"', b)
                    if 'noncompliant' in b:
                        emit(rule, service, 'tp', b, [m.group(1)])
                    elif m:
                        emit(rule, service, 'fp', b, [])
            continue
        other = regex.compile(WH_OTHER[name]) if name in WH_OTHER else None
        has_marks = any(WH_MARK.match(l) for l in lines)
        part, start = (None if has_marks else 'compliant'), 0
        for i, l in enumerate(lines):
            if WH_MARK.match(l):
                part = 'noncompliant' if regex.search(r'(?i)(non-?|in)compliant', l) else 'compliant'
                start = i + 1
                continue
            if part is None or not l.strip() or l.strip() in ('{', '}', '},', '[', ']', '],') or regex.match(r'^\s*</', l):
                continue
            if part == 'noncompliant' or not has_marks:
                # a name that spells `hardcoded` (`01_hardcoded_password:`,
                # `<o1_hardcoded_password>`) is not a value
                values = [m.group(0) for m in WH_VALUE.finditer(l)
                          if not regex.match(r'["\']?\s*[:=]|>', l[m.end():]) and not l[:m.start()].endswith(('<', '</'))]
                values += [m.group(0) for m in other.finditer(l)] if other else []
                if name == 'webhooks.yml':
                    values = [v[v.rfind('/') + 1:] for v in values]
                if name.startswith('privatekeys') and 'PUBLIC KEY' in l:
                    values = []
                values = list(dict.fromkeys(values))
                if values:
                    before = l[:l.find(values[0])]
                    text = wh_record(lines, i, start) if WH_GENERIC.match(before) else l.strip()
                    emit(rule, service, 'tp', text.strip('\n'), values)
                    continue
                if has_marks:
                    continue
            # a compliant line counts as a negative only when it holds a value
            if regex.search(r'[:=>]\s*[^\s\[{]|^\s*-\s*\S|"\s*,\s*"|\(\s*"', l):
                before = l
                text = wh_record(lines, i, start) if WH_GENERIC.match(regex.sub(r'[:=>].*$', '', l)) else l.strip()
                emit(rule, service, 'fp', text.strip('\n'), [])
    return out

# Trivy: its secret scanner's tests (pkg/fanal/secret/scanner_test.go) name,
# for each test data file, every finding the built-in rules must report and
# nothing else (the test compares the whole list). A finding gives its lines
# and the matched text with the secret masked by `*`; the masked characters,
# read back from the data file, are the label. Only test cases run with the
# built-in rules alone (configs `skip-test.yaml` and `config.yaml`, whose own
# rule `rule1` is left out) are read. A line of such a file that holds a
# value (8+ characters of a key's alphabet) and lies in no finding is a
# negative: the test requires that nothing is found there.
TRIVY_DIR = 'pkg/fanal/secret/'
TRIVY_CONFIGS = {'skip-test.yaml', 'config.yaml'}
# identifiers and public keys, which the gateway does not remove
TRIVY_NOT_SECRET = regex.compile(r'client-id|publishable|pub-api-key|public-key|api-id$')
TRIVY_SERVICE = {'hugging': 'huggingface', 'hashicorp': 'terraform', 'private': 'private_key', 'dockerconfig': 'docker', 'new': 'newrelic', 'stateless': 'github', 'jwt': 'jwt', 'maven': 'maven', 'sendinblue': 'brevo', 'private-packagist': 'packagist'}

def trivy(repo, seen):
    source = 'trivy'
    test = git(repo, 'show', f'HEAD:{TRIVY_DIR}scanner_test.go')
    findings = {}
    # Match is a Go expression: string literals and strings.Repeat("*", n) joined by +
    def go_string(expr):
        value = ''
        for p in regex.finditer(r'("(?:[^"\\]|\\.)*")|`([^`]*)`|strings\.Repeat\("(.)", (\d+)\)', expr):
            value += json.loads(p.group(1)) if p.group(1) else p.group(2) if p.group(2) is not None else p.group(3) * int(p.group(4))
        return value
    for m in regex.finditer(r'(\w+)\s*:?=\s*types\.SecretFinding\{(.*?)\n\t\}', test, regex.S):
        body = m.group(2)
        get = lambda k: (regex.search(k + r':\s*([^\n]*),\n', body) or [None, None])[1]
        if get('RuleID') is None or get('Match') is None:
            continue
        findings[m.group(1)] = {'rule': go_string(get('RuleID')), 'start': int(get('StartLine')), 'end': int(get('EndLine')), 'match': go_string(get('Match'))}
    # the OpenAI findings come from a helper: line 1, the whole line masked
    for m in regex.finditer(r'(\w+) := openAIFinding\("([^"]+)", "[^"]*", "[^"]*", (\d+)\)', test):
        findings[m.group(1)] = {'rule': m.group(2), 'start': 1, 'end': 1, 'match': '*' * int(m.group(3))}
    out = []
    def emit(rule, service, kind, text, secrets):
        keep(out, seen, source, f'{kind} skipped (same text in an earlier source)', rule, service, kind, text, secrets)
    cases = regex.findall(r'configPath:\s*filepath\.Join\("testdata", "([^"]+)"\),\s*inputFilePath:\s*(?:filepath\.Join\("testdata", "([^"]+)"\)|"testdata/([^"]+)"),\s*want:\s*(types\.Secret\{\}|types\.Secret\{.*?Findings:\s*\[\]types\.SecretFinding\{(.*?)\},)', test, regex.S)
    done = set()
    for config, f1, f2, want, names in cases:
        path = f1 or f2
        if config not in TRIVY_CONFIGS or path in done:
            continue
        done.add(path)
        try:
            lines = git(repo, 'show', f'HEAD:{TRIVY_DIR}testdata/{path}').replace('\r\n', '\n').split('\n')
        except (subprocess.CalledProcessError, UnicodeDecodeError):
            count(source, 'file skipped (missing or not UTF-8)')
            continue
        covered = set()
        complete = True
        for name in regex.findall(r'\w+', names or ''):
            fd = findings.get(name)
            if fd is None:
                count(source, 'finding skipped (not read: not a finding literal)')
                complete = False
                continue
            covered |= set(range(fd['start'], fd['end'] + 1))
            rule = fd['rule']
            if rule == 'rule1' or TRIVY_NOT_SECRET.search(rule):
                count(source, 'finding skipped (custom rule, identifier or public key)')
                continue
            text = '\n'.join(lines[fd['start'] - 1:fd['end']])
            masked = fd['match']
            # the match is masked text inside these lines: align it, then read
            # each run of masked characters back from the file
            secrets = []
            for at in range(0, len(text) - len(masked) + 1):
                if all(c == '*' or c == text[at + k] for k, c in enumerate(masked)):
                    for r in regex.finditer(r'\*+', masked):
                        secrets.append(text[at + r.start():at + r.end()])
                    break
            # a masked quote around the value is not part of it
            secrets = [s.strip('"\'') for s in secrets]
            secrets = [s for s in dict.fromkeys(secrets) if len(s) >= 6 and '*' not in s]
            if not secrets:
                count(source, 'finding skipped (masked match not found in the file: truncated or multi-line)')
                continue
            stem = rule.split('-')[0]
            service = TRIVY_SERVICE.get('private-packagist' if rule.startswith('private-packagist') else stem, stem)
            emit(f'trivy.{rule}', service, 'tp', text.strip('\n'), secrets)
        if config != 'skip-test.yaml' or not complete:
            # a file scanned with a custom rule as well, or whose findings
            # were not all read: no negatives from it
            continue
        for i, l in enumerate(lines, 1):
            if i in covered or not regex.search(r'[A-Za-z0-9+/=_-]{8,}', l):
                continue
            emit(f'trivy.{path}', 'none', 'fp', l.strip(), [])
    return out

# checkov's secret scanner tests (tests/secrets/). The tests give counts of
# findings per file or per line; which value each finding is, is read here
# from the names the files give their values (every file below holds exactly
# as many credential values as its test requires findings). Service: aws for
# the AWS key checks, generic for the keyword-and-entropy check.
CHECKOV_DIR = 'tests/secrets/'
# (file, [(name, service)]): the value after each name is a labelled secret,
# each on its own line as one sample; the test named beside it requires them.
CHECKOV_LINES = [
    ('sanity/secrets/true_positive.json', [(n, 'generic') for n in ('SA_PASSWORD', 'secret_key', 'my_new_password', 'test_pass', 'pg_pass', 'my_secret')]),  # test_sanity_check_secrets: 6
    ('resources/cfn/secret.yml', [('access_key', 'aws'), ('secret_key', 'aws')]),  # test_runner_failing_check: 2
    ('resources/terraform_failed/main.tf', [('access_key', 'aws'), ('secret_key', 'aws')]),  # test_runner_tf_failing_check: 2
    ('resources/file_type/test.py', [('access_key', 'aws'), ('secret_key', 'aws')]),  # test_true_positive_py: 2
    ('resources/file_type/test.ts', [('access_key', 'aws'), ('secret_key', 'aws')]),  # ..._only_ts: 2
    ('resources/file_type/Dockerfile', [('AWS_ACCESS_KEY_ID', 'aws'), ('AWS_SECRET_ACCESS_KEY', 'aws')]),  # ..._only_dockerfile: 4 in two files
    ('resources/file_type/Dockerfile.simple', [('AWS_ACCESS_KEY_ID', 'aws'), ('AWS_SECRET_ACCESS_KEY', 'aws')]),
    ('test_entropy_source_files/db-conn.js', [('pg_pass', 'generic')]),  # test_runner_entropy_source_files: lines 4 and 6
    ('custom_and_entropy/main.tf', [('test_pass', 'generic')]),
]
# name/value records (JSON objects, YAML list items) whose tests require 5
# findings: the values named TEST_PASSWORD_1..4 and _LONG_1 (not
# TEST_PASSWORD_no_password, not SOME_NAME); each record is one sample.
CHECKOV_RECORDS = ['json_multiline/test-multiline-secrets.json', 'yml_multiline/test-multiline-secrets.yml']
# Files whose tests require no finding at all (every check run, or the
# keyword-and-entropy check on files only it would flag): each line holding
# a value is a negative.
CHECKOV_CLEAN = ['resources/cfn/secret-no-false-positive.yml', 'resources/cfn/secret-no-false-positive2.yml',
                 'sanity/iac_fp/main.json', 'sanity/iac_fp/main.tf', 'sanity/non_iac_fp/a.py', 'resources/k8s/secret-name.yaml',
                 'sanity/non_secrets/true_negative.json']

def checkov(repo, seen):
    source = 'checkov'
    out = []
    def emit(rule, service, kind, text, secrets):
        keep(out, seen, source, f'{kind} skipped (same text in an earlier source)', rule, service, kind, text, secrets)
    read = lambda f: git(repo, 'show', f'HEAD:{CHECKOV_DIR}{f}').replace('\r\n', '\n')
    value_after = lambda name: regex.compile(r'(?:^|[\s"\'])' + regex.escape(name) + r'["\']?\s*[:=]\s*["\']?([^"\'\s,]+)')
    for f, names in CHECKOV_LINES:
        lines = read(f).split('\n')
        for name, service in names:
            hits = [(l, m.group(1)) for l in lines for m in [value_after(name).search(l)] if m]
            if len(hits) != 1:
                count(source, 'label skipped (name not found once)')
                continue
            emit(f'checkov.{f}', service, 'tp', hits[0][0].strip(), [hits[0][1]])
    # the mongo URI of db-conn.js (its test's second finding): the password
    for l in read('test_entropy_source_files/db-conn.js').split('\n'):
        m = regex.search(r'mongodb\+srv://[^:]+:([^@]+)@', l)
        if m:
            emit('checkov.test_entropy_source_files/db-conn.js', 'mongodb', 'tp', l.strip(), [m.group(1)])
    # two secrets on one line (test_runner_omit_multiple_secrets_in_line: 2)
    text = read('omit_multiple_secrets/test/multiple_secrets_one_line.txt').strip()
    emit('checkov.omit_multiple_secrets', 'aws', 'tp', text, regex.findall(r'AKIA[A-Z0-9]{16}|rk_live_\w+', text))
    for f in CHECKOV_RECORDS:
        body = read(f)
        records = regex.split(r'\n\s*\},?\s*\{\s*\n|\n  - ', body)
        for r in records:
            if 'TEST_PASSWORD_' not in r or 'no_password' in r:
                continue
            vals = [m.group(1) for m in regex.finditer(r'"?value1?"?\s*:\s*"?([A-Za-z0-9+/=]{40,})', r)]
            emit(f'checkov.{f}', 'generic', 'tp', r.strip().strip('{},').strip(), vals)
    # test_plugin.py: the lines analyze_line is given, with the number of
    # results required (a .py file is skipped by that plugin whatever it
    # holds, so those cases are not negatives)
    tp = read('test_plugin.py')
    for m in regex.finditer(r'analyze_line\("([^"]+)", ((?:\'[^\']*\'|"[^"]*")), \d+\)\s*\n\s*self\.assertEqual\((\d), len\(result\)\)', tp):
        fname, line, n = m.group(1), ast.literal_eval(m.group(2)), int(m.group(3))
        if fname.endswith('.py') or '\n' in line:
            continue
        if n == 1:
            v = regex.search(r'[:=]\s*["\']?([^"\'\s]{8,})["\']?\s*$', line)
            if v:
                emit('checkov.test_plugin', 'generic', 'tp', line, [v.group(1)])
        else:
            emit('checkov.test_plugin', 'none', 'fp', line, [])
    for f in CHECKOV_CLEAN:
        for l in read(f).split('\n'):
            # the one AWS-example line of the file run with the keyword check
            # alone is no negative of the other checks
            if not regex.search(r'[A-Za-z0-9+/=_-]{8,}', l) or 'AKIA' in l:
                continue
            emit(f'checkov.{f}', 'none', 'fp', l.strip(), [])
    return out

def load_texts(name):
    with open(f'{name}.jsonl') as fh:
        return {' '.join(json.loads(l)['text'].split()) for l in fh if l.strip()}

if __name__ == '__main__':
    np_repo, kf_repo, ds_repo = sys.argv[1:4]
    sl_repo = sys.argv[4] if len(sys.argv) > 4 else '-'
    rs_repo = sys.argv[5] if len(sys.argv) > 5 else '-'
    wh_repo = sys.argv[6] if len(sys.argv) > 6 else '-'
    tv_repo = sys.argv[7] if len(sys.argv) > 7 else '-'
    ck_repo = sys.argv[8] if len(sys.argv) > 8 else '-'
    seen = set()
    sets = {}
    if np_repo != '-':
        sets['noseyparker'] = yaml_rules(np_repo, 'crates/noseyparker/data/default/builtin/rules', 'noseyparker', seen)
    else:
        seen |= load_texts('noseyparker')
    if kf_repo != '-':
        sets['kingfisher'] = yaml_rules(kf_repo, 'data/rules', 'kingfisher', seen)
    if ds_repo != '-':
        sets['detect-secrets'] = detect_secrets(ds_repo)
    if sl_repo != '-':
        sets['secretlint'] = secretlint(sl_repo, seen)
    if rs_repo != '-':
        # Texts of every other source count as seen, whichever were re-read.
        for other in ('kingfisher', 'detect-secrets', 'secretlint'):
            if other not in sets:
                seen |= load_texts(other)
        sets['ripsecrets'] = ripsecrets(rs_repo, seen)
    if wh_repo != '-':
        for other in ('kingfisher', 'detect-secrets', 'secretlint', 'ripsecrets'):
            if other not in sets:
                seen |= load_texts(other)
        sets['whispers'] = whispers(wh_repo, seen)
    if tv_repo != '-':
        for other in ('kingfisher', 'detect-secrets', 'secretlint', 'ripsecrets', 'whispers'):
            if other not in sets:
                seen |= load_texts(other)
        sets['trivy'] = trivy(tv_repo, seen)
    if ck_repo != '-':
        for other in ('kingfisher', 'detect-secrets', 'secretlint', 'ripsecrets', 'whispers', 'trivy'):
            if other not in sets:
                seen |= load_texts(other)
        sets['checkov'] = checkov(ck_repo, seen)
    for name, rows in sets.items():
        with open(f'{name}.jsonl', 'w') as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + '\n')
    json.dump(stats, sys.stderr, indent=1)
