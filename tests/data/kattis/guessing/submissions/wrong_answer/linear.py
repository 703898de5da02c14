guess = 1
while True:
    print(guess, flush=True)
    if input() == "correct":
        break
    guess += 1
