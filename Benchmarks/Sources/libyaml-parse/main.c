// The floor under every YAML reader: libyaml's own event parse of each file named on the command
// line, with nothing built from the events. Yams wraps this parser, and so does Courier's reader;
// a generator's time is reported against it.
//
// `libyaml-parse [--passes N] FILE...` reads each file into memory once, then parses it N times
// (default 1) and prints the median wall and CPU time of one pass: a process's start and the file
// read are not part of the floor, and a single pass of a small file is shorter than the
// resolution of a whole-process timer.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

static double seconds(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int compare(const void *left, const void *right) {
    double a = *(const double *)left, b = *(const double *)right;
    return (a > b) - (a < b);
}

/// Parses `size` bytes once; returns the number of events, or -1 after printing the error.
static long parse(const char *path, const unsigned char *bytes, size_t size) {
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(stderr, "%s: cannot initialise libyaml\n", path);
        return -1;
    }
    yaml_parser_set_input_string(&parser, bytes, size);
    long events = 0;
    int done = 0;
    while (!done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: %s\n", path, (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error");
            yaml_parser_delete(&parser);
            return -1;
        }
        done = event.type == YAML_STREAM_END_EVENT;
        events += 1;
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return events;
}

static unsigned char *contents(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        return NULL;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    if (!bytes || fread(bytes, 1, (size_t)length, file) != (size_t)length) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(bytes);
        fclose(file);
        return NULL;
    }
    fclose(file);
    *size = (size_t)length;
    return bytes;
}

int main(int argc, char **argv) {
    int passes = 1;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--passes") == 0) {
        passes = atoi(argv[2]);
        first = 3;
        if (passes < 1) {
            fprintf(stderr, "--passes needs a whole number of at least 1\n");
            return 2;
        }
    }
    int status = 0;
    for (int index = first; index < argc; index++) {
        size_t size = 0;
        unsigned char *bytes = contents(argv[index], &size);
        if (!bytes) {
            status = 1;
            continue;
        }
        double *walls = malloc(sizeof(double) * (size_t)passes);
        double *cpus = malloc(sizeof(double) * (size_t)passes);
        long events = 0;
        for (int pass = 0; pass < passes && events >= 0; pass++) {
            double wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
            events = parse(argv[index], bytes, size);
            walls[pass] = seconds(CLOCK_MONOTONIC) - wall;
            cpus[pass] = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
        }
        if (events < 0) {
            status = 1;
        } else {
            qsort(walls, (size_t)passes, sizeof(double), compare);
            qsort(cpus, (size_t)passes, sizeof(double), compare);
            printf("%s: %ld events; one pass: wall %.6f s, cpu %.6f s (median of %d)\n", argv[index], events,
                   walls[passes / 2], cpus[passes / 2], passes);
        }
        free(walls);
        free(cpus);
        free(bytes);
    }
    return status;
}
