import sys

secret = int(open(sys.argv[1]).read())
feedback = open(sys.argv[3] + "judgemessage.txt", "w")
for query in range(1, 32):
    line = sys.stdin.readline()
    if not line:
        feedback.write("the submission stopped after %d queries\n" % (query - 1))
        sys.exit(43)
    try:
        guess = int(line)
    except ValueError:
        feedback.write("not a number: %r\n" % line)
        sys.exit(43)
    if guess == secret:
        print("correct", flush=True)
        # Nothing may follow the right guess.
        if sys.stdin.read().strip():
            feedback.write("output after the right guess\n")
            sys.exit(43)
        sys.exit(42)
    print("lower" if secret < guess else "higher", flush=True)
feedback.write("more than 31 queries\n")
sys.exit(43)
