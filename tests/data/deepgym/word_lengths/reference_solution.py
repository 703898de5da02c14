def word_lengths(text):
    result = {}
    for word in text.split():
        result[word] = len(word)
    return result
