#ifndef STATS_H
#define STATS_H

#include <string>
#include <utility>
#include <vector>

// Implemented by the contestant.
long long total(const std::vector<long long>& values);
std::string shout(std::string word);
void split_parity(const std::vector<int>& numbers, std::vector<int>& even, std::vector<int>& odd);
double mean(std::vector<int> numbers);
std::vector<std::pair<int, std::string>> label(std::vector<std::vector<int>> groups, char mark);
bool all_positive(std::vector<long long> values);

// Implemented by the grader: the contestant reports each group it labels.
void report(int group, unsigned long long size);

#endif
