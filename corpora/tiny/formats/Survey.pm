package Survey;

=head1 NAME

Survey - tally seabird burrows by colony

=head1 SYNOPSIS

  my $survey = Survey->new(colony => 'north slope');
  $survey->count(petrel => 42);

=cut

sub new { my ($class, %args) = @_; return bless {%args, counts => {}}, $class }
sub count { my ($self, $species, $n) = @_; $self->{counts}{$species} += $n }

1;
